import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './cors.examples.json' with { type: 'json' };

// Server settings that let the browser send cookies or auth headers cross-origin.
const CREDENTIALS_ALLOWED = {
  pattern:
    /\bcredentials["']?\s*[:=]\s*true\b|\bsupports_credentials\s*=\s*True\b|\ballow_credentials\s*=\s*True\b|\bCORS_ALLOW_CREDENTIALS\s*=\s*True\b|Access-Control-Allow-Credentials["']?\s*[,:=]?\s*["']?true\b|\.AllowCredentials\s*\(\s*\)|\ballowCredentials\s*[(=:]\s*(?:true|"true")|\bAllowCredentials\s*:\s*true\b/i,
  before: 8,
  after: 8,
};

const WILDCARD_WITH_CREDENTIALS: HintRule = {
  id: 'cors/wildcard-with-credentials',
  category: 'cors',
  severity: 'high',
  description:
    'CORS that allows any origin (wildcard, reflection or origin: true) together with credentials.',
  message:
    'CORS allows any origin with credentials, so any site can make authenticated requests and read the answers; allow-list the origins.',
  matchers: [
    {
      kind: 'code',
      languages: ['any'],
      keywords: [
        'access-control-allow-origin',
        'origin',
        'allow_origins',
        'cors_allow_all_origins',
        'cors_origin_allow_all',
        'allowanyorigin',
        'allowedorigin',
        'allowallorigins',
        'setisoriginallowed',
        'allowedoriginpatterns',
      ],
      pattern:
        /Access-Control-Allow-Origin["']?\s*[,:=]?\s*["']?\*|\borigins?["']?\s*[:=]\s*(?:true\b|["']\*["']|\[\s*["']\*["']\s*\])|\ballow_origins\s*=\s*\[\s*["']\*["']|\bCORS_(?:ALLOW_ALL_ORIGINS|ORIGIN_ALLOW_ALL)\s*=\s*True\b|\.AllowAnyOrigin\s*\(\s*\)|\ballowedOrigins?\s*\(\s*"\*"|\bAllowedOrigins\s*:\s*\[\]string\s*\{\s*"\*"|\bAllowAllOrigins\s*:\s*true\b|\bSetIsOriginAllowed\s*\(\s*\w+\s*=>\s*true\b|\ballowedOriginPatterns\s*\(\s*"\*"|\borigin\s*:\s*\(?\s*\w+\s*,\s*(?:cb|callback|done)\s*\)?\s*=>\s*(?:cb|callback|done)\s*\(\s*null\s*,\s*true\s*\)/i,
      near: {
        before: CREDENTIALS_ALLOWED.before,
        after: CREDENTIALS_ALLOWED.after,
        requires: CREDENTIALS_ALLOWED.pattern,
      },
    },
  ],
};

const REFLECTED_ORIGIN: HintRule = {
  id: 'cors/reflected-origin',
  category: 'cors',
  severity: 'medium',
  description:
    'Access-Control-Allow-Origin set from the request Origin header without a visible allow-list check (high with credentials).',
  message:
    'The Origin request header is echoed into Access-Control-Allow-Origin; verify it is checked against an allow-list first.',
  matchers: [
    {
      kind: 'code',
      languages: ['any'],
      keywords: ['access-control-allow-origin'],
      pattern:
        /Access-Control-Allow-Origin["']?\s*[\],:=]?\s*.*?(?:headers?(?:\.get)?\s*[[(.]\s*["']?origin\b|HTTP_ORIGIN|Header\.Get\s*\(\s*"Origin"\s*\)|\bget\s*\(\s*["']origin["']|\$http_origin\b|,\s*origin\s*\)|=\s*origin\s*;?\s*$)/i,
      near: {
        before: 6,
        after: 0,
        forbids:
          /\b(?:includes|indexOf|has|contains|test|match|in_array|allowed|whitelist|allowlist)\b[^\n]*origin|origin\s*(?:===?|!==?|\bin\b)/i,
      },
      escalate: { severity: 'high', near: CREDENTIALS_ALLOWED },
    },
  ],
};

export const CORS_CATEGORY: CategoryRules = {
  category: 'cors',
  label: 'Permissive CORS',
  sinkKind: 'header',
  rules: [WILDCARD_WITH_CREDENTIALS, REFLECTED_ORIGIN],
  examples: readExamples(EXAMPLES, 'cors.examples.json'),
};
