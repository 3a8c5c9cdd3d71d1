import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './open-redirect.examples.json' with { type: 'json' };
import { perLanguage } from '../matchers/per-language.js';

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
      kind: 'request-sink',
      languages: ['php'],
      keywords: ['location'],
      pattern: /\bheader\s*\(\s*["']Location:\s*["']\s*\./i,
      input: 'php',
    },
  ],
};

// A URL-like value on one side (not itself named as allowed), an allow-list entry on the other.
const URL_NAME = String.raw`(?!\w*(?:allow|white|trust|safe|permit|valid))\w*(?:url|uri|href|link|target|redirect|dest\w*|origin|host|domain|referr?er|return_?to|next)\w*`;
const ALLOWED_NAME = String.raw`\w*(?:allow|white|trust|safe|permit|valid)\w*`;

// How the allow-list side's name starts, as keywords; in brace languages joined to the test that
// takes it (`includes(allowed`), since the words alone are common (`validate`, `isSafe`).
const ALLOWED_KEYWORDS = ['allow', 'white', 'trust', 'safe', 'permit', 'valid'];
const SUBSTRING_TESTS = ['includes', 'indexof', 'contains', 'match', 'search'];

const SUBSTRING_ALLOW_LIST: HintRule = {
  id: 'redirect/substring-allow-list',
  category: 'open-redirect',
  severity: 'medium',
  description:
    'A URL checked against an allow-list by substring (includes, indexOf, contains, in), which any URL that merely mentions an allowed one passes.',
  message:
    'The URL is allowed when it merely contains an allowed entry, so https://evil.example/?https://allowed.example passes; parse it and compare the origin exactly.',
  matchers: [
    {
      kind: 'code',
      languages: ['js', 'java', 'csharp'],
      keywords: SUBSTRING_TESTS.flatMap((test) =>
        ALLOWED_KEYWORDS.map((name) => `${test}(${name}`),
      ),
      pattern: new RegExp(
        String.raw`\b${URL_NAME}\s*(?:\.\s*(?:toString|toLowerCase)\s*\(\s*\))?\s*\.\s*(?:includes|indexOf|contains|Contains|match|search)\s*\(\s*${ALLOWED_NAME}\b`,
        'i',
      ),
      isStringScanned: false,
    },
    {
      kind: 'code',
      languages: ['python'],
      keywords: ALLOWED_KEYWORDS,
      pattern: new RegExp(String.raw`\b${ALLOWED_NAME}\s+in\s+${URL_NAME}\b(?!\s*[\[(.])`, 'i'),
    },
    {
      kind: 'code',
      languages: ['php'],
      keywords: ['strpos', 'str_contains', 'stripos'],
      pattern: new RegExp(
        String.raw`\b(?:strpos|stripos|str_contains)\s*\(\s*\$${URL_NAME}\s*,\s*\$${ALLOWED_NAME}`,
        'i',
      ),
    },
    {
      kind: 'code',
      languages: ['ruby'],
      keywords: ['include?'],
      pattern: new RegExp(String.raw`\b${URL_NAME}\.include\?\s*\(?\s*${ALLOWED_NAME}\b`, 'i'),
    },
    {
      kind: 'code',
      languages: ['go'],
      keywords: ['strings.contains'],
      pattern: new RegExp(
        String.raw`\bstrings\.Contains\s*\(\s*${URL_NAME}\s*,\s*${ALLOWED_NAME}\b`,
        'i',
      ),
    },
  ],
};

export const OPEN_REDIRECT_CATEGORY: CategoryRules = {
  category: 'open-redirect',
  label: 'Open redirect',
  sinkKind: 'url',
  rules: [
    OPEN_REDIRECT, // the target itself comes from the request
    SUBSTRING_ALLOW_LIST, // the target passes a check any URL can satisfy
  ],
  examples: readExamples(EXAMPLES, 'open-redirect.examples.json'),
};
