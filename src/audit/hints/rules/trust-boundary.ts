import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './trust-boundary.examples.json' with { type: 'json' };
import { perLanguage } from '../matchers/per-language.js';

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
    // express-session's and cookie-session's `req.session`, Koa's `ctx.session` (koa-session):
    // a property, a key the request names, or Object.assign into it.
    ...perLanguage(['js'], {
      keywords: ['session'],
      pattern: /\b(?:req|ctx|request)\.session\.[\w$]+\s*=(?!=)/,
    }),
    ...perLanguage(['js'], {
      keywords: ['session'],
      // Matched from the `]`, so the flow reads the key before it.
      pattern: /(?<=\b(?:req|ctx|request)\.session\s*\[\s*(?!["'`])[^\]\n]+)\]\s*=(?!=)/,
      argument: 'receiver',
    }),
    ...perLanguage(['js'], {
      keywords: ['session'],
      pattern: /\bObject\.assign\s*\(\s*(?:req|ctx|request)\.session\s*,/,
    }),
    ...perLanguage(['python'], {
      keywords: ['session'],
      pattern: /\bsession\s*\[[^\]\n]+\]\s*=(?!=)/,
    }),
    // A key the request names (`session[name] = …`), and the dict methods that store into Flask's and
    // Django's sessions (both dicts): `update`, `setdefault`.
    ...perLanguage(['python'], {
      keywords: ['session'],
      // Matched from the `]`, so the flow reads the key before it.
      pattern: /(?<=\bsession\s*\[\s*(?!["'])[^\]\n]+)\]\s*=(?!=)/,
      argument: 'receiver',
    }),
    ...perLanguage(['python'], {
      keywords: ['session'],
      pattern: /\bsession\.(?:update|setdefault)\s*\(/,
    }),
    // Go: gorilla/sessions' Values map and gin-contrib/sessions' Set, key or value from the request.
    ...perLanguage(['go'], {
      keywords: ['values', 'set'],
      pattern: /\bsession\.Values\s*\[[^\]\n]+\]\s*=(?!=)|\bsession\.Set\s*\(/,
      fileRequires: /gorilla\/sessions|gin-contrib\/sessions/,
    }),
    // Ruby: Rails' and Sinatra's session hash (a value or a key from the request), its `update`,
    // `merge!` and `store`, and Rails' signed and encrypted cookies, which the server trusts as its own
    // (https://api.rubyonrails.org/classes/ActionDispatch/Cookies.html).
    ...perLanguage(['ruby'], {
      keywords: ['session', 'signed', 'encrypted'],
      pattern:
        /\bsession\s*\[[^\]\n]+\]\s*=(?!=)|\bsession\.(?:update|merge!|store)\b|\bcookies(?:\.permanent)?\.(?:signed|encrypted)\s*\[[^\]\n]+\]\s*=(?!=)/,
    }),
    ...perLanguage(['ruby'], {
      keywords: ['session'],
      pattern: /(?<=\bsession\s*\[\s*(?![:"'])(?:[^[\]\n]|\[[^\]\n]*\])+)\]\s*=(?!=)/,
      argument: 'receiver',
    }),
    // $_SESSION entries (nested ones and appends too), a key the request names; Laravel's session
    // writes (https://laravel.com/docs/session): session([...]), session()->put/push/flash/now,
    // $request->session()->put, the Session facade.
    ...perLanguage(['php'], {
      keywords: ['$_session'],
      pattern: /\$_SESSION\s*\[\s*["'][^"']+["']\s*\](?:\s*\[[^\]\n]*\])*\s*(?:\.|\?\?)?=(?!=)/,
    }),
    ...perLanguage(['php'], {
      keywords: ['$_session'],
      // Matched from the `]`, so the flow reads the key before it.
      pattern: /(?<=\$_SESSION\s*\[\s*(?!["'])[^\n;=]+)\]\s*=(?!=)/,
      argument: 'receiver',
    }),
    ...perLanguage(['php'], {
      keywords: ['session'],
      pattern:
        /(?<![\w>:$])session\s*\(\s*\[|\bsession\s*\(\s*\)\s*->\s*(?:put|push|flash|now|increment)\s*\(|->\s*session\s*\(\s*\)\s*->\s*(?:put|push|flash|now)\s*\(|\bSession::(?:put|push|flash|now)\s*\(/,
      argument: 'all',
    }),
  ],
};

export const TRUST_BOUNDARY_CATEGORY: CategoryRules = {
  category: 'trust-boundary',
  label: 'Request data stored in the session',
  sinkKind: 'session',
  rules: [TRUST_BOUNDARY],
  examples: readExamples(EXAMPLES, 'trust-boundary.examples.json'),
};
