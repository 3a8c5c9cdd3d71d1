import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './xpath-injection.examples.json' with { type: 'json' };
import { perLanguage } from '../matchers/per-language.js';

const XPATH_INJECTION: HintRule = {
  id: 'xpath/request-expression',
  category: 'xpath-injection',
  severity: 'high',
  description: 'An XPath expression built from request data.',
  message:
    'The XPath expression is built from request data, so a client can change the query; use XPath variables for the value.',
  matchers: [
    // javax.xml.xpath's XPath (compile, evaluate, Java 9's evaluateExpression), dom4j's node queries.
    ...perLanguage(['java'], {
      keywords: [
        'evaluate',
        'evaluateexpression',
        'compile',
        'selectnodes',
        'selectsinglenode',
        'createxpath',
      ],
      pattern:
        /\.(?:evaluate|evaluateExpression|compile|selectNodes|selectSingleNode|createXPath)\s*\(/,
      fileRequires: /\bjavax\.xml\.xpath\b|\bxpath\b|\borg\.dom4j\b/i,
      argument: 'first',
    }),
    ...perLanguage(['python'], {
      // lxml's `.xpath()` and its compiled `XPath(query)` / `ETXPath(query)`, ElementTree's path queries.
      keywords: ['xpath', 'etxpath', 'find', 'findall', 'iterfind', 'findtext'],
      pattern: /\.(?:xpath|find|findall|iterfind|findtext)\s*\(|\b(?:XPath|ETXPath)\s*\(/,
      fileRequires: /lxml|xml\.etree|ElementTree|xpath/i,
      argument: 'first',
    }),
    // Ruby: Nokogiri's node queries (a query's `$name` bound by the variables hash is not the query's
    // text, https://nokogiri.org/rdoc/Nokogiri/XML/Searchable.html#method-i-xpath) and REXML::XPath's
    // first, match and each, whose query is the second argument (the first is the node). Nokogiri's
    // `css`/`at_css` compile the selector to XPath and evaluate it with no variables
    // (sparklemotion/nokogiri lib/nokogiri/xml/searchable.rb at 022af2f7: css_internal →
    // CSS.xpath_for; css/xpath_visitor.rb writes an unknown pseudo-class as an XPath function call),
    // so a selector built from the request chooses the nodes as an XPath query would.
    ...perLanguage(['ruby'], {
      keywords: ['xpath', 'at_xpath', 'search', 'at(', 'css', 'at_css'],
      pattern: /\.(?:xpath|at_xpath|search|at|at_css|css)\b\s*\(?/,
      fileRequires: /\bnokogiri\b/i,
      argument: 'first',
    }),
    ...perLanguage(['ruby'], {
      keywords: ['xpath.'],
      pattern: /\bREXML::XPath\.(?:first|match|each)\s*\(/,
      argument: 'call',
    }),
    // REXML's Elements#[] and #each, and Element#get_elements, take an XPath expression
    // (https://docs.ruby-lang.org/en/3.3/REXML/Elements.html); an Integer index is no query.
    ...perLanguage(['ruby'], {
      keywords: ['elements', 'get_elements'],
      pattern: /\.elements\s*(?:\[|\.each\s*\(|\.to_a\s*\()|\.get_elements\s*\(/,
      fileRequires: /\brexml\b/i,
      argument: 'rest',
    }),
    // Go: antchfx's xmlquery and htmlquery take the node, then the expression (Find, FindOne,
    // FindEach, FindEachWithBreak, Query, QueryAll; antchfx/xmlquery and antchfx/htmlquery README and
    // query.go), and antchfx/xpath compiles one (Compile, MustCompile, CompileWithNS) or runs it on a
    // navigator (Select). The library has no variables, so the expression's text is the only way in.
    ...perLanguage(['go'], {
      keywords: ['xmlquery.', 'htmlquery.', 'xpath.'],
      pattern:
        /\b(?:xmlquery|htmlquery)\.(?:Find|FindOne|FindEach|FindEachWithBreak|Query|QueryAll)\s*\(|\bxpath\.(?:Compile|MustCompile|CompileWithNS|Select)\s*\(/,
      argument: 'call',
    }),
    ...perLanguage(['php'], {
      keywords: ['query', 'evaluate', 'xpath'],
      pattern: /->(?:query|evaluate|xpath)\s*\(/,
      fileRequires: /DOMXPath|SimpleXML|->xpath\s*\(/,
      argument: 'first',
    }),
    // The xpath package (select, select1, evaluate, parse, and the selector useNamespaces returns),
    // the DOM's document.evaluate / createExpression, libxmljs's find/get on a document or node, and
    // fontoxpath's evaluateXPath* functions.
    ...perLanguage(['js'], {
      keywords: ['xpath.', 'xp.', 'document.evaluate', 'createexpression', 'evaluatexpath'],
      pattern:
        /\b(?:xpath|xp)\.(?:select1?|evaluate|parse)\s*\(|\bdocument\.(?:evaluate|createExpression)\s*\(|\bevaluateXPath\w*\s*\(/,
      argument: 'first',
    }),
    ...perLanguage(['js'], {
      keywords: ['select', 'usenamespaces'],
      pattern: /\bselect\s*\(/,
      fileRequires: /\buseNamespaces\s*\(/,
      unless: /\bSELECT\b/,
      argument: 'first',
    }),
    ...perLanguage(['js'], {
      keywords: ['find', 'get'],
      pattern: /\.(?:find|get)\s*\(/,
      fileRequires: /["']libxmljs2?["']/,
      argument: 'first',
    }),
  ],
};

export const XPATH_INJECTION_CATEGORY: CategoryRules = {
  category: 'xpath-injection',
  label: 'XPath built from request data',
  sinkKind: 'xpath',
  rules: [XPATH_INJECTION],
  examples: readExamples(EXAMPLES, 'xpath-injection.examples.json'),
};
