import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './xss.examples.json' with { type: 'json' };
import { REQUEST_INPUT } from '../knowledge/sources.js';
import {
  ERB_RESULT,
  GO_HTML_TEMPLATE_UNALIASED,
  GO_RESPONSE_WRITER_TYPE,
  GO_TEXT_TEMPLATE_IMPORT,
  NOT_HTML_CONTENT_TYPE,
  NOT_HTML_RETURN,
  PHP_ARROW_PAGE_BODY,
  RUBY_NOT_HTML,
  RUBY_OTHER_TYPE,
  SINATRA_ERB_ESCAPING,
  SINATRA_ERB_VIEW,
} from '../knowledge/responses.js';

const RUBY_REQUEST_INPUT = REQUEST_INPUT.ruby ?? /(?!)/;
import { perLanguage } from '../matchers/per-language.js';

const INNER_HTML: HintRule = {
  id: 'xss/inner-html',
  category: 'xss',
  severity: 'medium',
  description:
    'Assignment to innerHTML or outerHTML of a non-constant value (Angular `[innerHTML]` bindings are sanitised by the framework and left out).',
  message:
    'HTML assigned from a value; verify it is sanitised or never caller-controlled (prefer textContent).',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['js', 'template'],
      isStringScanned: false,
      argument: 'rest',
      // An iframe's srcdoc is a whole document parsed as HTML (HTML standard, "the iframe element").
      keywords: ['innerhtml', 'outerhtml', 'srcdoc'],
      pattern: /\.(?:inner|outer)HTML\s*\+?=(?!=)|\.srcdoc\s*=(?!=)/,
      // Clearing the element, or a constant string with nothing interpolated.
      unless:
        /\.(?:inner|outer)HTML\s*=\s*(?:(["'`])\1|(["'])[^"'`+]*\2|`[^`$]*`)\s*;?\s*(?:\/\/.*)?$/,
    },
  ],
};

const INSERT_ADJACENT_HTML: HintRule = {
  id: 'xss/insert-adjacent-html',
  category: 'xss',
  severity: 'medium',
  description: 'insertAdjacentHTML, which parses its argument as HTML.',
  message: 'insertAdjacentHTML parses its argument as HTML; verify it is sanitised or constant.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['js', 'template'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['insertadjacenthtml'],
      pattern: /\.insertAdjacentHTML\s*\(/,
    },
  ],
};

// The other DOM calls that parse a string as HTML (HTML standard and DOM Parsing): a Range's
// createContextualFragment, setHTMLUnsafe / parseHTMLUnsafe; and Angular's Renderer2.setProperty
// of `innerHTML`/`outerHTML`, which writes the DOM property with no sanitising
// (https://angular.dev/api/core/Renderer2#setProperty).
const HTML_PARSING_CALL: HintRule = {
  id: 'xss/html-parsing-call',
  category: 'xss',
  severity: 'medium',
  description:
    'createContextualFragment, setHTMLUnsafe, parseHTMLUnsafe or Renderer2.setProperty(el, "innerHTML", …): a string parsed as HTML.',
  message: 'This call parses its argument as HTML; verify it is sanitised or constant.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['js', 'template'],
      keywords: ['createcontextualfragment', 'sethtmlunsafe', 'parsehtmlunsafe', 'setproperty'],
      pattern:
        /\.(?:createContextualFragment|setHTMLUnsafe|parseHTMLUnsafe)\s*\(|\.setProperty\s*\(\s*[^,()]+,\s*(["'])(?:inner|outer)HTML\1\s*,/,
      isStringScanned: false,
      argument: 'call',
    },
  ],
};

const DANGEROUSLY_SET_INNER_HTML: HintRule = {
  id: 'xss/dangerously-set-inner-html',
  category: 'xss',
  severity: 'medium',
  description: "React's dangerouslySetInnerHTML.",
  message:
    'dangerouslySetInnerHTML renders raw HTML; verify the __html value is sanitised (for example with DOMPurify).',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      isStringScanned: false,
      keywords: ['dangerouslysetinnerhtml'],
      pattern: /\bdangerouslySetInnerHTML\s*[=:]/,
      // Type declarations of the prop, not uses.
      unless:
        /\bdangerouslySetInnerHTML\?\s*:|\bdangerouslySetInnerHTML\s*:\s*\{\s*__html\s*:\s*(?:string|any|TrustedHTML)\b/,
    },
  ],
};

const DOCUMENT_WRITE: HintRule = {
  id: 'xss/document-write',
  category: 'xss',
  severity: 'medium',
  description: 'document.write / document.writeln.',
  message: 'document.write parses its argument as HTML; verify it holds no caller-controlled text.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['js', 'template'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['document.write'],
      pattern: /\bdocument\.write(?:ln)?\s*\(/,
    },
  ],
};

const ANGULAR_BYPASS: HintRule = {
  id: 'xss/angular-bypass-security-trust',
  category: 'xss',
  severity: 'medium',
  description: "Angular DomSanitizer.bypassSecurityTrust*, which turns off Angular's sanitising.",
  message:
    'bypassSecurityTrust* disables Angular sanitising for this value; verify it can never hold caller-controlled content.',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      isStringScanned: false,
      keywords: ['bypasssecuritytrust'],
      pattern: /\bbypassSecurityTrust(?:Html|Script|Style|Url|ResourceUrl)\s*\(/,
    },
  ],
};

const VUE_V_HTML: HintRule = {
  id: 'xss/vue-v-html',
  category: 'xss',
  severity: 'medium',
  description: "Vue's v-html directive.",
  message: 'v-html renders raw HTML; verify the bound value is sanitised or constant.',
  matchers: [
    {
      kind: 'code',
      languages: ['template', 'js'],
      keywords: ['v-html'],
      pattern: /(?<![\w-])v-html\s*=/,
    },
  ],
};

const SVELTE_RAW_HTML: HintRule = {
  id: 'xss/svelte-raw-html',
  category: 'xss',
  severity: 'medium',
  description: "Svelte's {@html ...} tag.",
  message: '{@html} renders raw HTML; verify the expression is sanitised or constant.',
  matchers: [
    {
      kind: 'code',
      languages: ['template'],
      keywords: ['{@html'],
      pattern: /\{@html\s/,
    },
  ],
};

// A Blade raw echo whose whole value is escaped (`{!! e($bio) !!}`, `{!! nl2br(e($bio)) !!}`): Laravel's
// e() is htmlspecialchars (knowledge/sanitisers.ts), and nl2br only adds `<br />` after newlines.
const BLADE_RAW_ECHO = String.raw`\{!!(?!\s*(?:nl2br\s*\(\s*)?(?:e|htmlspecialchars|htmlentities)\s*\((?:[^()]|\([^()]*\))*\)\s*\)?\s*!!\})`;

const TEMPLATE_UNESCAPED: HintRule = {
  id: 'xss/template-unescaped',
  category: 'xss',
  severity: 'medium',
  description:
    'Unescaped output in a server template: {{{ }}}, {{& }}, Pug !{ } and !=, {!! !!}, |safe, |raw, <%== %>, <%- %>, th:utext, @Html.Raw, autoescape off (or an engine configured not to escape).',
  message: 'Template output is not HTML-escaped here; verify the value is sanitised or constant.',
  matchers: [
    {
      kind: 'code',
      languages: ['template'],
      keywords: [
        '{{{',
        '{{&',
        '!{',
        '!=',
        '{!!',
        '|safe',
        '| safe',
        '|raw',
        '| raw',
        '<%==',
        '<%-',
        'th:utext',
        'html.raw',
        'autoescape',
      ],
      pattern: new RegExp(
        String.raw`\{\{\{\s*[^}\s]|\{\{&|!\{[^}]|^\s*[\w.#-]*(?:\([^)]*\))?!=\s|${BLADE_RAW_ECHO}|\|\s*(?:safe|raw)\b|<%==|<%-(?!-)|\bth:utext\b|@Html\.Raw\s*\(|\bautoescape\s+(?:false|off)\b`,
      ),
    },
    // Engines configured not to escape (nunjucks `autoescape: false`, Handlebars `noEscape: true`).
    {
      kind: 'code',
      languages: ['js'],
      keywords: ['autoescape', 'noescape'],
      pattern: /\bautoescape\s*:\s*false\b|\bnoEscape\s*:\s*true\b/,
    },
  ],
};

const PYTHON_MARK_SAFE: HintRule = {
  id: 'xss/python-mark-safe',
  category: 'xss',
  severity: 'medium',
  description:
    'Django mark_safe / SafeString or markupsafe Markup applied to a non-constant value.',
  message:
    'The value is marked as safe HTML and will not be escaped; verify it holds no caller-controlled text.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['python'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['mark_safe', 'markup', 'safestring'],
      pattern: /\b(?:mark_safe|Markup|SafeString)\s*\(/,
      unless: /\b(?:mark_safe|Markup|SafeString)\s*\(\s*(["'])[^"'{}%]*\1\s*\)/,
    },
  ],
};

const RUBY_HTML_SAFE: HintRule = {
  id: 'xss/ruby-html-safe',
  category: 'xss',
  severity: 'medium',
  description: 'Rails html_safe or raw() on a non-constant value.',
  message: 'html_safe / raw skip Rails escaping; verify the value holds no caller-controlled text.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['ruby'],
      isStringScanned: false,
      argument: 'expression',
      keywords: ['html_safe', 'raw'],
      pattern: /\.html_safe\b|(?<![\w.])raw\s*\(?\s*[@\w]/,
      unless: /(["'])[^"'#]*\1\.html_safe\b/,
    },
  ],
};

// Request data within the lines before an unescaped ERB render (a local the binding hands it, an
// instance variable the view reads, or a `locals:` hash).
const RUBY_REQUEST_NEAR = {
  before: 10,
  after: 0,
  requires: RUBY_REQUEST_INPUT,
  isWithinFunction: true as const,
};

const RUBY_ERB_UNESCAPED: HintRule = {
  id: 'xss/ruby-erb-unescaped',
  category: 'xss',
  severity: 'medium',
  description:
    'An ERB template rendered without escaping (ERB#result, Sinatra `erb :view` without `escape_html: true`) after request data is read.',
  message:
    'ERB writes <%= %> unescaped here, and request data is in scope; escape it (ERB::Util.html_escape, or `set :erb, escape_html: true` in Sinatra).',
  matchers: [
    {
      kind: 'code',
      languages: ['ruby'],
      isStringScanned: false,
      keywords: ['result', 'result_with_hash'],
      pattern: ERB_RESULT,
      fileRequires: /\bERB\.new\b/,
      // Rails' `render html:` escapes a String that is not html_safe; `html_safe` is its own rule.
      unless: /\brender\b[^\n]*\bhtml:|\.html_safe\b/,
      near: RUBY_REQUEST_NEAR,
    },
    {
      kind: 'code',
      languages: ['ruby'],
      isStringScanned: false,
      keywords: ['erb'],
      pattern: SINATRA_ERB_VIEW,
      fileRequires: /\bsinatra\b|\bSinatra::/i,
      fileForbids: SINATRA_ERB_ESCAPING,
      isInRouteHandlerOnly: true,
      near: RUBY_REQUEST_NEAR,
    },
  ],
};

const PHP_ECHO_REQUEST: HintRule = {
  id: 'xss/php-echo-request',
  category: 'xss',
  severity: 'high',
  description: 'PHP echo/print of request input without an escaping function on the line.',
  message:
    'Request input is written into the page without escaping; use htmlspecialchars (or the template engine).',
  matchers: [
    {
      kind: 'code',
      languages: ['php'],
      isStringScanned: false,
      keywords: ['_get', '_post', '_request', '_cookie', '_server'],
      pattern:
        /(?:\becho\b|\bprint\b|<\?=)[^;]*\$_(?:GET|POST|REQUEST|COOKIE|SERVER\s*\[\s*["'](?:PHP_SELF|REQUEST_URI|QUERY_STRING|HTTP_\w+))/,
      unless:
        /htmlspecialchars|htmlentities|strip_tags|intval|\(int\)|esc_html|esc_attr|esc_url|filter_var|urlencode/,
      near: { before: 12, after: 0, forbids: NOT_HTML_CONTENT_TYPE.php },
    },
  ],
};

const GO_TEMPLATE_HTML: HintRule = {
  id: 'xss/go-template-html',
  category: 'xss',
  severity: 'medium',
  description:
    'html/template trusted types (template.HTML, JS, URL, ...) built from a non-literal value.',
  message:
    'A template.HTML (or JS/URL/CSS) value bypasses html/template escaping; verify it is never caller-controlled.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['go'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['template'],
      pattern: /\btemplate\.(?:HTML|JS|URL|HTMLAttr|CSS|JSStr|Srcset)\s*\(\s*(?!["`)])/,
    },
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
    // Express's res.send serves a string as text/html (https://expressjs.com/en/5x/api.html#res.send),
    // unless the handler set another type first (`res.type('json')`, a Content-Type header).
    ...perLanguage(['js'], {
      keywords: ['send'],
      pattern: /\bres(?:\.status\s*\(\s*\d+\s*\))?\.send\s*\(/,
      near: { before: 4, after: 0, forbids: NOT_HTML_CONTENT_TYPE.js },
      argument: 'first',
    }),
    // Node's http res.write/end send what they are given under the type the handler set: HTML when
    // it set text/html or writes markup.
    ...perLanguage(['js'], {
      keywords: ['write', 'end'],
      pattern: /\bres\.(?:write|end)\s*\(/,
      near: { before: 4, after: 0, requires: /["'`]\s*<\w|<\/\w+>|text\/html/ },
    }),
    // Koa serves a string body as text/html when it starts with `<` (koajs/koa docs/api/response.md):
    // a request value can; a literal that starts with other text makes the page text/plain.
    ...perLanguage(['js'], {
      keywords: ['body'],
      pattern: /\bctx\.(?:response\.)?body\s*=(?!=)/,
      // An object or array body is JSON.
      unless: /\bctx\.(?:response\.)?body\s*=\s*(?:(["'`])\s*[^<\s"'`$]|[{[])/,
      near: { before: 4, after: 0, forbids: NOT_HTML_CONTENT_TYPE.js },
      argument: 'rest',
    }),
    // A fetch Response (Next.js route handlers) is text/plain for a string unless its headers say text/html.
    ...perLanguage(['js'], {
      keywords: ['response'],
      pattern: /\bnew\s+(?:Next)?Response\s*\(/,
      near: { before: 0, after: 3, requires: /text\/html/ },
      argument: 'first',
    }),
    // A servlet's writer or output stream (`response.getWriter().append(…)`, `out.print(…)`).
    ...perLanguage(['java'], {
      keywords: ['print', 'println', 'write', 'printf', 'format', 'append'],
      pattern:
        /\b(?:out|writer|w|pw|printWriter|os|sos|outputStream|getWriter\s*\(\s*\)|getOutputStream\s*\(\s*\))\.(?:print|println|write|printf|format|append)\s*\(/,
    }),
    // What a Spring @RestController (or @ResponseBody) method returns as a String is its page.
    ...perLanguage(['java'], {
      keywords: ['return'],
      pattern: /^\s*return\s+(?=\S)/,
      fileRequires: /@RestController\b|@ResponseBody\b/,
      unless: NOT_HTML_RETURN.java,
      isInRouteHandlerOnly: true,
      argument: 'body',
    }),
    ...perLanguage(['python'], {
      keywords: ['make_response', 'httpresponse'],
      pattern: /\b(?:make_response|HttpResponse)\s*\(/,
      // The body only: headers and the status travel in the same call.
      argument: 'body',
    }),
    // net/http's ResponseWriter and Gin's c.Writer; c.Data with an HTML type (c.String is text/plain).
    ...perLanguage(['go'], {
      keywords: ['fprintf', 'fprint', 'fprintln', 'write', 'writestring'],
      pattern:
        /\bfmt\.Fprint(?:f|ln)?\s*\(\s*(?:w|rw|c\.Writer)\s*,|\b(?:w|rw|c\.Writer)\.(?:Write|WriteString)\s*\(|\bio\.WriteString\s*\(\s*(?:w|rw|c\.Writer)\s*,/,
      near: { before: 4, after: 0, requires: /<\w|text\/html/ },
    }),
    // A text/template executed into the handler's writer (Gin's c.Writer): its data is the page, unescaped.
    ...perLanguage(['go'], {
      keywords: ['execute', 'executetemplate'],
      pattern: /\.Execute(?:Template)?\s*\(\s*(?:c\.Writer|(?<receiver>[A-Za-z_]\w*))\s*,/,
      receiver: { typedAs: GO_RESPONSE_WRITER_TYPE },
      fileRequires: GO_TEXT_TEMPLATE_IMPORT,
      fileForbids: GO_HTML_TEMPLATE_UNALIASED,
    }),
    ...perLanguage(['go'], {
      keywords: ['data'],
      pattern: /\bc\.Data\s*\(\s*[^,]+,\s*"text\/html/,
    }),
    // What a Flask view returns is its page (a `str` is served as text/html), unless it is JSON,
    // a redirect, a file or an escaping template.
    ...perLanguage(['python'], {
      keywords: ['return'],
      pattern: /^\s*return\s+(?=\S)/,
      fileRequires: /\bfrom\s+flask\b|\bimport\s+flask\b/,
      unless: NOT_HTML_RETURN.python,
      isInRouteHandlerOnly: true,
      argument: 'body',
    }),
    // Sinatra: the string a route block ends on is the page, and so are `body(x)` and `halt(status, x)`;
    // not JSON, a redirect, a template, nor a body whose content_type is set to something else.
    ...perLanguage(['ruby'], {
      keywords: ['"', "'", '%q', '%(', '<<~', 'body', 'halt'],
      pattern:
        /^\s*(?:(?=["']|%[Qq]?[({[<|]|<<[~-]?["']?[A-Z_]+)|(?:body|halt)\b\s*\(?\s*(?:\d+\s*,\s*)?(?=\S))/,
      fileRequires: /\bsinatra\b|\bSinatra::/i,
      isInRouteHandlerOnly: true,
      unless: RUBY_NOT_HTML,
      near: { before: 8, after: 0, forbids: RUBY_OTHER_TYPE },
      argument: 'rest',
    }),
    // A Sinatra route block that ends on a bare variable (`html = "<p>#{params[:q]}</p>"; html`): found
    // at the block's `end`, as no keyword reaches a line that is only a name, and shown on that name.
    ...perLanguage(['ruby'], {
      keywords: ['end'],
      pattern: /^\s*end\b/,
      fileRequires: /\bsinatra\b|\bSinatra::/i,
      isRouteHandlerEndOnly: true,
      near: {
        before: 8,
        after: 0,
        requires: /^[ \t]*[a-z_]\w*[ \t]*(?:#[^\n]*)?\n(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*end\b/m,
        forbids: RUBY_OTHER_TYPE,
      },
      argument: 'previous',
    }),
    // Rails: `send_data` shown inline with an HTML type; `content_tag` with its escaping turned off.
    ...perLanguage(['ruby'], {
      keywords: ['send_data'],
      pattern: /\bsend_data\b(?=[^\n]*\btype:\s*(?:["']text\/html|:html\b))/,
      unless: /\bdisposition:\s*["']attachment/,
      argument: 'first',
    }),
    ...perLanguage(['ruby'], {
      keywords: ['content_tag'],
      pattern: /\bcontent_tag\b(?=\s*\(?[^\n]*,\s*false\s*\)?\s*$)/,
      argument: 'call',
    }),
    // PHP writes to the page with echo, print, <?= and the printf family, and with exit/die of a
    // string (https://www.php.net/manual/en/function.exit.php); print_r and var_export print their
    // value unless told to return it. A Content-Type header other than HTML above makes it not a page.
    ...perLanguage(['php'], {
      keywords: ['echo', 'print', '<?='],
      pattern: /(?:\becho\b|\bprint\b|<\?=)\s*/,
      near: { before: 12, after: 0, forbids: NOT_HTML_CONTENT_TYPE.php },
      argument: 'rest',
    }),
    ...perLanguage(['php'], {
      keywords: ['printf', 'vprintf', 'print_r', 'var_export', 'exit', 'die'],
      pattern: /(?<![\w>:$])(?:printf|vprintf|print_r|var_export|exit|die)\s*\(/,
      unless: /\b(?:print_r|var_export)\s*\([^;]*,\s*true\s*\)/,
      near: { before: 12, after: 0, forbids: NOT_HTML_CONTENT_TYPE.php },
      argument: 'call',
    }),
    // readfile('php://input') prints the request body into the page as it came.
    ...perLanguage(['php'], {
      isStringScanned: false,
      keywords: ['readfile'],
      pattern: /(?<![\w>:$])readfile\s*\(\s*(?=["']php:\/\/input["'])/,
      near: { before: 12, after: 0, forbids: NOT_HTML_CONTENT_TYPE.php },
      argument: 'expression',
    }),
    // Laravel: a string a route or controller returns is served as text/html, as is
    // response($html) / Response::make($html); an HtmlString is printed by Blade unescaped.
    ...perLanguage(['php'], {
      keywords: ['return'],
      pattern: /^\s*return\s+(?=\S)/,
      fileRequires: /\bIlluminate\\|\bRoute::/,
      unless: NOT_HTML_RETURN.php,
      isInRouteHandlerOnly: true,
      argument: 'rest',
    }),
    // A route's arrow function (`fn ($name) => "<p>$name</p>"`): its body is what it returns.
    ...perLanguage(['php'], {
      isStringScanned: false,
      keywords: ['fn'],
      pattern: PHP_ARROW_PAGE_BODY,
      fileRequires: /\bIlluminate\\|\bRoute::/,
      isInRouteHandlerOnly: true,
      argument: 'rest',
    }),
    ...perLanguage(['php'], {
      keywords: ['response', 'htmlstring'],
      pattern:
        /(?<![\w>:$])response\s*\(\s*(?!\))|\bResponse::make\s*\(|\bnew\s+(?:\\?Illuminate\\Support\\)?HtmlString\s*\(/,
      argument: 'first',
    }),
    // Page HTML gathered in a variable and printed elsewhere (`$html .= '<pre>' . $name . '</pre>'`).
    ...perLanguage(['php'], {
      keywords: ["'<", '"<'],
      pattern: /\$\w+\s*\.?=\s*(?=["']<[A-Za-z])/,
      argument: 'rest',
    }),
  ],
};

export const XSS_CATEGORY: CategoryRules = {
  category: 'xss',
  label: 'Cross-site scripting',
  sinkKind: 'html',
  rules: [
    INNER_HTML,
    INSERT_ADJACENT_HTML,
    HTML_PARSING_CALL,
    DANGEROUSLY_SET_INNER_HTML,
    DOCUMENT_WRITE,
    ANGULAR_BYPASS,
    VUE_V_HTML,
    SVELTE_RAW_HTML,
    TEMPLATE_UNESCAPED,
    PYTHON_MARK_SAFE,
    RUBY_HTML_SAFE,
    RUBY_ERB_UNESCAPED,
    PHP_ECHO_REQUEST,
    GO_TEMPLATE_HTML,
    HTML_RESPONSE,
  ],
  examples: readExamples(EXAMPLES, 'xss.examples.json'),
};
