import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './template-injection.examples.json' with { type: 'json' };

const TEMPLATE_INJECTION: HintRule = {
  id: 'template/request-source',
  category: 'template-injection',
  severity: 'high',
  description: 'A template compiled from request data, or render locals spread from the request.',
  message:
    'Template source (or the render options) comes from the request, which lets a client run code in the template engine; render a fixed template with the value as data.',
  matchers: [
    {
      kind: 'request-sink',
      languages: ['js'],
      keywords: ['compile', 'render', 'template'],
      pattern:
        /\b(?:pug|jade|ejs|Handlebars|handlebars|nunjucks|_|lodash|dot|doT|mustache|Mustache)\.(?:compile|render|template|renderString)\s*\(\s*(?!["'`])/,
      input: 'js',
    },
    {
      kind: 'code',
      languages: ['js'],
      keywords: ['render'],
      pattern: /\.render\s*\(\s*[^,]+,\s*(?:\{\s*\.\.\.\s*)?req\.(?:query|body|params)\b(?!\.)/,
    },
    {
      kind: 'request-sink',
      languages: ['php'],
      keywords: ['createtemplate', 'fetch', 'display'],
      pattern: /->createTemplate\s*\(|->(?:fetch|display)\s*\(\s*["']string:/,
      input: 'php',
    },
    {
      kind: 'request-sink',
      languages: ['ruby'],
      // Rails' `render inline:` and Sinatra's `erb`/`haml`/`slim` given a string (not a view's
      // `:name`) compile that string as the template.
      keywords: ['erb.new', 'liquid', 'haml', 'slim', 'inline', 'erb'],
      pattern:
        /\bERB\.new\s*\(|\bLiquid::Template\.parse\s*\(|\bHaml::(?:Engine|Template)\.new\s*\(|\brender\s*\(?\s*(?:inline:|:inline\s*=>)|^\s*(?:erb|haml|slim|liquid)\b\s*\(?\s*(?![:\s)])/,
      input: 'ruby',
    },
    {
      kind: 'request-sink',
      languages: ['java'],
      keywords: ['velocity', 'evaluate', 'new template', 'spelexpressionparser'],
      pattern: /\b(?:Velocity|velocityEngine|engine)\.evaluate\s*\(|\bnew\s+Template\s*\(/,
      fileRequires: /\b(?:velocity|freemarker)\b/i,
      input: 'java',
    },
    {
      kind: 'request-sink',
      languages: ['go'],
      keywords: ['parse'],
      pattern: /\btemplate\.New\s*\([^)]*\)\s*\.Parse\s*\(|\.Parse\s*\(/,
      fileRequires: /"(?:text|html)\/template"/,
      input: 'go',
      argument: 'first',
    },
    {
      kind: 'request-sink',
      languages: ['python'],
      keywords: ['render_template_string', 'template(', 'from_string'],
      pattern: /\b(?:render_template_string|Template|from_string)\s*\(\s*(?!["'])/,
      unless: /\b(?:render_template_string|Template|from_string)\s*\(\s*[A-Z][A-Z0-9_]*\s*[,)]/,
      input: 'python',
    },
  ],
};

export const TEMPLATE_INJECTION_CATEGORY: CategoryRules = {
  category: 'template-injection',
  label: 'Server-side template injection',
  sinkKind: 'template',
  rules: [TEMPLATE_INJECTION],
  examples: readExamples(EXAMPLES, 'template-injection.examples.json'),
};
