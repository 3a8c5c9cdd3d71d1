import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './insecure-cookie.examples.json' with { type: 'json' };

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
      kind: 'code',
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
      kind: 'code',
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
      kind: 'code',
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
      kind: 'code',
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
      kind: 'code',
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

export const INSECURE_COOKIE_CATEGORY: CategoryRules = {
  category: 'insecure-cookie',
  label: 'Cookies without Secure or HttpOnly',
  rules: [INSECURE_COOKIE],
  examples: readExamples(EXAMPLES, 'insecure-cookie.examples.json'),
};
