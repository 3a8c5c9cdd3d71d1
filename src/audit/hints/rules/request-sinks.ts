import type { HintRule, LineMatcher } from '../hint-rule.js';
import type { Language } from '../detect-languages.js';

// One matcher per language: `requestInput` names the language whose request reads count.
function perLanguage(
  languages: readonly Language[],
  matcher: Omit<LineMatcher, 'languages' | 'requestInput'>,
): LineMatcher[] {
  return languages.map((language) => ({
    ...matcher,
    languages: [language],
    requestInput: language,
  }));
}

const OPEN_REDIRECT: HintRule = {
  id: 'redirect/request-target',
  category: 'open-redirect',
  severity: 'medium',
  description: 'A redirect whose target comes from the request (open redirect).',
  message:
    'The redirect target comes from the request, so a link can send users to any site; allow-list targets or keep them relative.',
  matchers: [
    ...perLanguage(['js', 'python', 'java', 'ruby', 'go'], {
      keywords: ['redirect', 'sendredirect', 'redirect_to'],
      pattern: /\b(?:redirect|sendRedirect|redirect_to|Redirect)\s*\(?\s*/,
      unless: /startsWith\s*\(|url_for\s*\(|\bis_safe_url\b|url_has_allowed_host_and_scheme/,
      isStringScanned: false,
    }),
    {
      languages: ['php'],
      keywords: ['location'],
      pattern: /\bheader\s*\(\s*["']Location:\s*["']\s*\./i,
      requestInput: 'php',
    },
  ],
};

const NOSQL_INJECTION: HintRule = {
  id: 'nosql/request-filter',
  category: 'nosql-injection',
  severity: 'high',
  description:
    'A MongoDB-style filter made of request values (objects can carry operators such as $ne), or $where with a non-constant string.',
  message:
    'The query filter holds request values as they came, so a client can send operators ($ne, $gt, $where); cast each value to a string or use $eq.',
  matchers: [
    {
      languages: ['js'],
      keywords: [
        'find',
        'findone',
        'updateone',
        'deleteone',
        'deletemany',
        'updatemany',
        'countdocuments',
        'findoneandupdate',
      ],
      pattern:
        /\.(?:find|findOne|findOneAndUpdate|findOneAndDelete|update|updateOne|updateMany|deleteOne|deleteMany|remove|countDocuments)\s*\(\s*(?:\{|[\w$.]+\s*[,)])/,
      // Sequelize `where:` filters bind values; `$eq` pins the operator; hashes and ciphers `update` too;
      // an `update` given one object sets values on a record (Sequelize): MongoDB's takes a filter and an update.
      unless:
        /\bwhere\s*:|\$eq\b|\bcreate(?:Hash|Hmac|Cipheriv|Decipheriv|Sign|Verify)\s*\(|\.digest\s*\(|\b(?:hash|hmac|cipher|decipher|md5|sha\d*)\.update\s*\(|\.update\s*\(\s*\{[^{}]*\}\s*\)/,
      requestInput: 'js',
      flowArgument: 'first',
    },
    {
      languages: ['python'],
      keywords: ['find', 'find_one', 'update_one', 'delete_one', 'delete_many', 'count_documents'],
      pattern:
        /\.(?:find|find_one|find_one_and_update|update_one|update_many|delete_one|delete_many|count_documents)\s*\(\s*(?:\{|[A-Za-z_][\w.]*\s*[,)])/,
      unless: /\$eq\b/,
      requestInput: 'python',
      flowArgument: 'first',
    },
    {
      languages: ['php'],
      keywords: ['find', 'findone', 'updateone', 'deleteone', 'updatemany', 'deletemany'],
      pattern:
        /->(?:find|findOne|updateOne|updateMany|deleteOne|deleteMany|count)\s*\(\s*(?:\[|array\s*\(|\$)/,
      unless: /\$eq\b/,
      requestInput: 'php',
      flowArgument: 'first',
    },
    {
      languages: ['js', 'python', 'php', 'java'],
      keywords: ['$where'],
      pattern: /["']?\$where["']?\s*[:=]>?\s*(?:["'][^"']*["']\s*[+.]|`[^`]*\$\{|[\w$]+\s*[,}])/,
    },
  ],
};

const XXE: HintRule = {
  id: 'xml/external-entities',
  category: 'xxe',
  severity: 'high',
  description: 'An XML parser that expands external entities (XXE).',
  message:
    'This XML parser resolves external entities, so a document can read local files or reach internal hosts; disable DTDs and entity expansion.',
  matchers: [
    {
      languages: ['java'],
      keywords: [
        'documentbuilderfactory',
        'saxparserfactory',
        'xmlinputfactory',
        'saxbuilder',
        'saxreader',
      ],
      pattern:
        /\b(?:DocumentBuilderFactory|SAXParserFactory|XMLInputFactory)\.newInstance\s*\(|\bnew\s+(?:SAXBuilder|SAXReader)\s*\(/,
      fileForbids:
        /disallow-doctype-decl|external-general-entities|SUPPORT_DTD|IS_SUPPORTING_EXTERNAL_ENTITIES|ACCESS_EXTERNAL_DTD|setExpandEntityReferences\s*\(\s*false/,
    },
    {
      languages: ['js'],
      keywords: ['noent'],
      pattern: /\bnoent\s*:\s*true\b/,
    },
    {
      languages: ['python'],
      keywords: ['resolve_entities', 'load_dtd', 'xml.sax', 'pulldom'],
      pattern: /\bresolve_entities\s*=\s*True\b|\bload_dtd\s*=\s*True\b|\bno_network\s*=\s*False\b/,
    },
    {
      languages: ['php'],
      keywords: ['libxml_noent', 'libxml_dtdload'],
      pattern: /\bLIBXML_(?:NOENT|DTDLOAD)\b/,
    },
  ],
};

const TEMPLATE_INJECTION: HintRule = {
  id: 'template/request-source',
  category: 'template-injection',
  severity: 'high',
  description: 'A template compiled from request data, or render locals spread from the request.',
  message:
    'Template source (or the render options) comes from the request, which lets a client run code in the template engine; render a fixed template with the value as data.',
  matchers: [
    {
      languages: ['js'],
      keywords: ['compile', 'render', 'template'],
      pattern:
        /\b(?:pug|jade|ejs|Handlebars|handlebars|nunjucks|_|lodash|dot|doT|mustache|Mustache)\.(?:compile|render|template|renderString)\s*\(\s*(?!["'`])/,
      requestInput: 'js',
    },
    {
      languages: ['js'],
      keywords: ['render'],
      pattern: /\.render\s*\(\s*[^,]+,\s*(?:\{\s*\.\.\.\s*)?req\.(?:query|body|params)\b(?!\.)/,
    },
    {
      languages: ['php'],
      keywords: ['createtemplate', 'fetch', 'display'],
      pattern: /->createTemplate\s*\(|->(?:fetch|display)\s*\(\s*["']string:/,
      requestInput: 'php',
    },
    {
      languages: ['ruby'],
      keywords: ['erb.new', 'liquid', 'haml', 'slim'],
      pattern:
        /\bERB\.new\s*\(|\bLiquid::Template\.parse\s*\(|\bHaml::(?:Engine|Template)\.new\s*\(/,
      requestInput: 'ruby',
    },
    {
      languages: ['java'],
      keywords: ['velocity', 'evaluate', 'new template', 'spelexpressionparser'],
      pattern: /\b(?:Velocity|velocityEngine|engine)\.evaluate\s*\(|\bnew\s+Template\s*\(/,
      fileRequires: /\b(?:velocity|freemarker)\b/i,
      requestInput: 'java',
    },
    {
      languages: ['go'],
      keywords: ['parse'],
      pattern: /\btemplate\.New\s*\([^)]*\)\s*\.Parse\s*\(|\.Parse\s*\(/,
      fileRequires: /"(?:text|html)\/template"/,
      requestInput: 'go',
      flowArgument: 'first',
    },
    {
      languages: ['python'],
      keywords: ['render_template_string', 'template(', 'from_string'],
      pattern: /\b(?:render_template_string|Template|from_string)\s*\(\s*(?!["'])/,
      unless: /\b(?:render_template_string|Template|from_string)\s*\(\s*[A-Z][A-Z0-9_]*\s*[,)]/,
      requestInput: 'python',
    },
  ],
};

const LDAP_INJECTION: HintRule = {
  id: 'ldap/request-filter',
  category: 'ldap-injection',
  severity: 'high',
  description: 'An LDAP search whose filter is built from request data.',
  message:
    'The LDAP filter is built from request data, so a client can change the search; escape the value or pass it as a filter argument.',
  matchers: perLanguage(['java', 'python', 'php'], {
    keywords: ['search', 'search_s', 'search_st', 'ldap_search'],
    pattern: /(?:\.search(?:_s|_st|_ext_s)?|\bldap_search)\s*\(/,
    unless: /new\s+Object\s*\[\s*\]/,
    fileRequires: /ldap|DirContext|naming\.directory/i,
  }),
};

const XPATH_INJECTION: HintRule = {
  id: 'xpath/request-expression',
  category: 'xpath-injection',
  severity: 'high',
  description: 'An XPath expression built from request data.',
  message:
    'The XPath expression is built from request data, so a client can change the query; use XPath variables for the value.',
  matchers: [
    ...perLanguage(['java'], {
      keywords: ['evaluate', 'compile', 'selectnodes', 'selectsinglenode'],
      pattern: /\.(?:evaluate|compile|selectNodes|selectSingleNode)\s*\(/,
      fileRequires: /\bjavax\.xml\.xpath\b|\bxpath\b|\borg\.dom4j\b/i,
      flowArgument: 'first',
    }),
    ...perLanguage(['python'], {
      keywords: ['xpath', 'find', 'findall', 'iterfind'],
      pattern: /\.(?:xpath|find|findall|iterfind|findtext)\s*\(/,
      fileRequires: /lxml|xml\.etree|ElementTree|xpath/i,
      flowArgument: 'first',
    }),
    ...perLanguage(['php'], {
      keywords: ['query', 'evaluate', 'xpath'],
      pattern: /->(?:query|evaluate|xpath)\s*\(/,
      fileRequires: /DOMXPath|SimpleXML|->xpath\s*\(/,
      flowArgument: 'first',
    }),
    ...perLanguage(['js'], {
      keywords: ['xpath.', 'xp.', 'document.evaluate'],
      pattern: /\b(?:xpath|xp)\.(?:select1?|evaluate|parse)\s*\(|\bdocument\.evaluate\s*\(/,
      flowArgument: 'first',
    }),
  ],
};

// Text that sets Secure and does not turn HttpOnly off (a cookie scripts may read, such as a CSRF
// token, is normal; one sent over plain HTTP is not).
function secureKept(secure: RegExp, httpOnlyOff: RegExp): RegExp {
  return new RegExp(`^(?=[\\s\\S]*${secure.source})(?![\\s\\S]*${httpOnlyOff.source})`, 'i');
}

const INSECURE_COOKIE: HintRule = {
  id: 'cookie/missing-flags',
  category: 'insecure-cookie',
  severity: 'low',
  description: 'A cookie set without the Secure flag, or with HttpOnly turned off.',
  message:
    'This cookie is set without Secure (or with HttpOnly off), so it can travel over plain HTTP or be read by scripts; set Secure, and HttpOnly unless scripts must read it.',
  matchers: [
    {
      languages: ['java'],
      keywords: ['cookie'],
      pattern: /\bnew\s+(?:[\w.]+\.)?Cookie\s*\(/,
      near: {
        before: 0,
        after: 8,
        forbids: secureKept(/\.setSecure\s*\(\s*true\b/, /\.setHttpOnly\s*\(\s*false\b/),
      },
    },
    {
      languages: ['js'],
      keywords: ['cookie'],
      pattern: /\bres\.cookie\s*\(/,
      near: {
        before: 0,
        after: 6,
        forbids: secureKept(/\bsecure\s*:\s*true/, /\bhttpOnly\s*:\s*false/),
      },
    },
    {
      languages: ['python'],
      keywords: ['set_cookie'],
      pattern: /\.set_cookie\s*\(/,
      near: {
        before: 0,
        after: 4,
        forbids: secureKept(/\bsecure\s*=\s*True\b/, /\bhttponly\s*=\s*False\b/),
      },
    },
    {
      languages: ['php'],
      keywords: ['setcookie'],
      pattern: /(?<![\w>:$])setcookie\s*\(/,
      near: {
        before: 0,
        after: 7,
        forbids:
          /^(?=[\s\S]*["']secure["']\s*=>\s*true)(?![\s\S]*["']httponly["']\s*=>\s*false)|setcookie\s*\((?:(?:[^,()]|\([^()]*\))+,){5}\s*true\b/i,
      },
    },
    {
      languages: ['go'],
      keywords: ['http.cookie'],
      pattern: /\bhttp\.Cookie\s*\{/,
      near: {
        before: 0,
        after: 10,
        forbids: secureKept(/\bSecure\s*:\s*true\b/, /\bHttpOnly\s*:\s*false\b/),
      },
    },
  ],
};

const TRUST_BOUNDARY: HintRule = {
  id: 'session/request-value',
  category: 'trust-boundary',
  severity: 'medium',
  description: 'Request data stored in the server-side session (trust boundary violation).',
  message:
    'A request value is stored in the session, where later code trusts it; validate it (or derive it server-side) first.',
  matchers: [
    ...perLanguage(['java'], {
      keywords: ['setattribute', 'putvalue'],
      pattern: /\b(?:session|getSession\s*\(\s*\w*\s*\))\.(?:setAttribute|putValue)\s*\(\s*[^,]+,/i,
    }),
    ...perLanguage(['js'], {
      keywords: ['session'],
      pattern: /\breq\.session\.[\w$]+\s*=(?!=)/,
    }),
    ...perLanguage(['python'], {
      keywords: ['session'],
      pattern: /\bsession\s*\[\s*["'][^"']+["']\s*\]\s*=(?!=)/,
    }),
    ...perLanguage(['php'], {
      keywords: ['$_session'],
      pattern: /\$_SESSION\s*\[\s*["'][^"']+["']\s*\]\s*=(?!=)/,
    }),
  ],
};

const HTML_RESPONSE: HintRule = {
  id: 'xss/request-html-response',
  category: 'xss',
  severity: 'medium',
  description:
    'Request data written into a server response (HTML built by concatenation, servlet or response-writer output).',
  message:
    'Request data is written into the response without an encoder, so a client can inject markup; encode it for HTML or use an escaping template.',
  matchers: [
    ...perLanguage(['js'], {
      keywords: ['send', 'write', 'end'],
      pattern: /\bres\.(?:send|write|end)\s*\(/,
      near: { before: 4, after: 0, requires: /["'`]\s*<\w|<\/\w+>/ },
    }),
    ...perLanguage(['java'], {
      keywords: ['print', 'println', 'write', 'printf', 'format'],
      pattern:
        /\b(?:out|writer|pw|getWriter\s*\(\s*\))\.(?:print|println|write|printf|format)\s*\(/,
    }),
    ...perLanguage(['python'], {
      keywords: ['make_response', 'httpresponse'],
      pattern: /\b(?:make_response|HttpResponse)\s*\(/,
    }),
    ...perLanguage(['go'], {
      keywords: ['fprintf', 'fprint', 'fprintln', 'write', 'writestring'],
      pattern: /\bfmt\.Fprint(?:f|ln)?\s*\(\s*w\s*,|\bw\.Write\s*\(|\bio\.WriteString\s*\(\s*w\s*,/,
      near: { before: 4, after: 0, requires: /<\w|text\/html/ },
    }),
    ...perLanguage(['python'], {
      keywords: ['return'],
      pattern: /^\s*return\s+(?!jsonify\b|render_template\b|redirect\b|send_file\b|\{|\[)/,
      fileRequires: /\bfrom\s+flask\b|\bimport\s+flask\b/,
      near: { before: 3, after: 0, requires: /["']\s*<\w|<\/\w+>/ },
      flowArgument: 'rest',
    }),
    ...perLanguage(['php'], {
      keywords: ['echo', 'print', '<?='],
      pattern: /(?:\becho\b|\bprint\b|<\?=)\s*/,
      flowArgument: 'rest',
    }),
    // Page HTML gathered in a variable and printed elsewhere (`$html .= '<pre>' . $name . '</pre>'`).
    ...perLanguage(['php'], {
      keywords: ["'<", '"<'],
      pattern: /\$\w+\s*\.?=\s*(?=["']<[A-Za-z])/,
      flowArgument: 'rest',
    }),
  ],
};

export const REQUEST_SINK_RULES: readonly HintRule[] = [
  HTML_RESPONSE,
  OPEN_REDIRECT,
  NOSQL_INJECTION,
  XXE,
  TEMPLATE_INJECTION,
  LDAP_INJECTION,
  XPATH_INJECTION,
  INSECURE_COOKIE,
  TRUST_BOUNDARY,
];
