import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './xxe.examples.json' with { type: 'json' };
import { escapeRegExp } from '../escape-reg-exp.js';
import {
  JAVA_ENTITY_SWITCHES,
  JAVA_XML_PARSER_CLASSES,
  JAVA_XML_PARSERS,
  JS_ENTITY_SWITCHES,
  PHP_ENTITY_SWITCHES,
  PYTHON_ENTITY_SWITCHES,
  RUBY_ENTITY_SWITCHES,
} from '../knowledge/xml-parsers.js';

const XXE: HintRule = {
  id: 'xml/external-entities',
  category: 'xxe',
  severity: 'high',
  description: 'An XML parser that expands external entities (XXE).',
  message:
    'This XML parser resolves external entities, so a document can read local files or reach internal hosts; disable DTDs and entity expansion.',
  matchers: [
    {
      kind: 'code',
      languages: ['java'],
      keywords: [
        ...new Set(JAVA_XML_PARSERS.map((call) => call.slice(0, call.indexOf('.')).toLowerCase())),
        ...JAVA_XML_PARSER_CLASSES.map((name) => name.toLowerCase()),
      ],
      pattern: new RegExp(
        String.raw`\b(?:${JAVA_XML_PARSERS.map(escapeRegExp).join('|')})\s*\(|\bnew\s+(?:${JAVA_XML_PARSER_CLASSES.join('|')})\s*\(`,
      ),
      fileForbids:
        /disallow-doctype-decl|external-general-entities|SUPPORT_DTD|IS_SUPPORTING_EXTERNAL_ENTITIES|ACCESS_EXTERNAL_DTD|setExpandEntityReferences\s*\(\s*false/,
    },
    // A switch that turns entities or DTDs back on, whatever else the file sets.
    {
      kind: 'code',
      languages: ['java'],
      isStringScanned: false,
      keywords: JAVA_ENTITY_SWITCHES.keywords,
      pattern: JAVA_ENTITY_SWITCHES.pattern,
    },
    {
      kind: 'code',
      languages: ['js'],
      keywords: JS_ENTITY_SWITCHES.keywords,
      pattern: JS_ENTITY_SWITCHES.pattern,
    },
    {
      kind: 'code',
      languages: ['python'],
      keywords: PYTHON_ENTITY_SWITCHES.keywords,
      pattern: PYTHON_ENTITY_SWITCHES.pattern,
    },
    {
      kind: 'code',
      languages: ['ruby'],
      keywords: RUBY_ENTITY_SWITCHES.keywords,
      pattern: RUBY_ENTITY_SWITCHES.pattern,
    },
    {
      kind: 'code',
      languages: ['php'],
      keywords: PHP_ENTITY_SWITCHES.keywords,
      pattern: PHP_ENTITY_SWITCHES.pattern,
    },
  ],
};

export const XXE_CATEGORY: CategoryRules = {
  category: 'xxe',
  label: 'XML external entities',
  rules: [XXE],
  examples: readExamples(EXAMPLES, 'xxe.examples.json'),
};
