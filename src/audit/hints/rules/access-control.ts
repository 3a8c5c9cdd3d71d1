import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './access-control.examples.json' with { type: 'json' };

// Middleware, decorators and filters that check who is asking.
const AUTH_CHECK =
  /\b(?:is_?authori[sz]ed|authori[sz]e\w*|authenticate\w*|require_?auth\w*|ensure_?auth\w*|ensure_?logged_?in|is_?admin|check_?auth\w*|deny_?all|verify_?token|require_?login|is_?logged_?in|login_required|permission_required|jwt_required|passport\.authenticate|protect|basicAuth|requireRole|hasRole|PreAuthorize|Secured|RolesAllowed)\b/i;

// Words of AUTH_CHECK a commented-out check holds, as keywords (matched at a word's start).
const AUTH_KEYWORDS = [
  'isauthorized',
  'isauthorised',
  'authorize',
  'authorise',
  'authenticate',
  'requireauth',
  'require_auth',
  'ensureauth',
  'isadmin',
  'checkauth',
  'denyall',
  'verifytoken',
  'requirelogin',
  'isloggedin',
  'preauthorize',
  'secured',
  'rolesallowed',
  'middleware',
  'passport',
];

const DIRECTORY_LISTING: HintRule = {
  id: 'access/directory-listing',
  category: 'access-control',
  severity: 'medium',
  description:
    'A folder served with its listing on (serve-index, Go http.FileServer, nginx autoindex, Apache Indexes, Python http.server).',
  message:
    'The folder is served with a browsable listing, so every file in it (backups, logs, keys) can be found and downloaded; serve named files only.',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      keywords: ['serveindex'],
      pattern: /\bserveIndex\s*\(/,
      isStringScanned: false,
    },
    {
      kind: 'code',
      languages: ['go'],
      keywords: ['fileserver'],
      pattern: /\bhttp\.FileServer\s*\(\s*http\.Dir\s*\(/,
    },
    {
      kind: 'code',
      languages: ['python'],
      keywords: ['simplehttprequesthandler'],
      // The handler passed to a server, not the class's own definition or a mention.
      pattern:
        /\b(?:HTTPServer|TCPServer|ThreadingHTTPServer)\s*\(.*\bSimpleHTTPRequestHandler\b|\bpartial\s*\(\s*(?:http\.server\.)?SimpleHTTPRequestHandler\b/,
      isStringScanned: false,
    },
    {
      kind: 'code',
      languages: ['shell'],
      keywords: ['http.server'],
      pattern: /\bpython[\d.]*\s+-m\s+http\.server\b/,
    },
    {
      kind: 'code',
      languages: ['any'],
      keywords: ['autoindex', 'indexes'],
      pattern: /^\s*autoindex\s+on\s*;|^\s*Options\s+(?:[+-]?\w+\s+)*\+?Indexes\b/i,
    },
  ],
};

const LOG_FILES_SERVED: HintRule = {
  id: 'access/log-files-served',
  category: 'access-control',
  severity: 'medium',
  description: 'A route that serves a logs folder or log files over HTTP.',
  message:
    'Log files are served over HTTP; logs hold tokens, e-mail addresses and internal paths, so keep them off the web or behind an admin check.',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      keywords: ['/logs', '/logfile', '/access-log', '/access_log', '/accesslog'],
      pattern:
        /\b(?:app|router|server)\s*\.\s*(?:use|get)\s*\(\s*["'`][^"'`]*\/(?:logs|logfiles?|access[-_]?logs?)\b[^"'`]*["'`]\s*,\s*(?:[\w.]+\s*\(|[\w.]*(?:static|serve|file|log)\w*)/i,
      unless: AUTH_CHECK,
    },
  ],
};

// Route paths of operational endpoints, as keywords: a route line is tested only when one occurs.
const OPERATIONAL_PATHS = [
  '/metrics',
  '/prometheus',
  '/actuator',
  '/debug',
  '/heapdump',
  '/threaddump',
  '/_internal',
];

const OPERATIONAL_ENDPOINT: HintRule = {
  id: 'access/unauthenticated-operational-endpoint',
  category: 'access-control',
  severity: 'medium',
  description:
    'A metrics, debug, actuator or profiling endpoint mounted with no access check on its route (Go: net/http/pprof on the default mux).',
  message:
    'An operational endpoint (metrics, debug, profiling) is served with no access check on its route; it leaks internals and sometimes secrets, so bind it to an internal port or require authentication.',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      keywords: OPERATIONAL_PATHS,
      pattern:
        /\b(?:app|router|server)\s*\.\s*(?:get|use|all)\s*\(\s*["'`]\/(?:metrics|prometheus|actuator|debug|heapdump|threaddump|_internal)\b[^"'`]*["'`]/i,
      unless: AUTH_CHECK,
    },
    {
      kind: 'code',
      languages: ['python'],
      keywords: OPERATIONAL_PATHS,
      pattern:
        /@\w+\.(?:route|get)\s*\(\s*["']\/(?:metrics|prometheus|actuator|debug|heapdump|threaddump|_internal)\b[^"']*["']/i,
      near: { before: 0, after: 3, forbids: AUTH_CHECK },
    },
    {
      kind: 'code',
      languages: ['go'],
      keywords: ['net/http/pprof', '/metrics', '/debug'],
      pattern:
        /^\s*_\s+"net\/http\/pprof"|^\s*import\s+_\s+"net\/http\/pprof"|\bhttp\.Handle(?:Func)?\s*\(\s*"\/(?:metrics|debug)\b/,
    },
  ],
};

const ON_FIRST_LINE = (pattern: RegExp): RegExp => new RegExp(`^[^\\n]*${pattern.source}`, 'i');
// An old registration kept as a comment above the route that replaced it, which still checks access
// (`// app.get("/benefits", isLoggedIn, h)` over `app.get("/benefits", isLoggedIn, isAdmin, h)`).
const REPLACED_ROUTE = new RegExp(
  String.raw`^\s*\/\/\s*(?:app|router|server|route|r)\s*\.\s*(get|post|put|patch|delete|use|all)\s*\(\s*(["'\x60])([^"'\x60\n]+)\2[^\n]*\n(?:[^\n]*\n){0,3}?\s*(?:app|router|server|route|r)\s*\.\s*\1\s*\(\s*\2\3\2[^\n]*${AUTH_CHECK.source}`,
  'i',
);

const DISABLED_ACCESS_CHECK: HintRule = {
  id: 'access/commented-out-check',
  category: 'access-control',
  severity: 'medium',
  description:
    'A route registration, decorator or filter carrying an access check, commented out (the route may now be open).',
  message:
    'An access check is commented out here; if the route is still served it is open to anyone, so restore the check or remove the route.',
  matchers: [
    {
      kind: 'text',
      languages: ['js', 'java', 'php', 'go', 'csharp'],
      keywords: AUTH_KEYWORDS,
      pattern:
        /^\s*\/\/\s*(?:(?:app|router|server|route|r)\s*\.\s*(?:get|post|put|patch|delete|use|all|route)\s*\(.*|@(?:PreAuthorize|Secured|RolesAllowed)\b|\$this->middleware\s*\(\s*["']auth|\[Authorize\b)/,
      // A whole route commented out with its inline handler serves nothing.
      unless: /,\s*(?:async\s+)?(?:function\s*\w*\s*\(|\([^()]*\)\s*=>|[\w$]+\s*=>)/,
      near: { before: 0, after: 4, requires: ON_FIRST_LINE(AUTH_CHECK), forbids: REPLACED_ROUTE },
    },
    {
      kind: 'text',
      languages: ['python', 'ruby'],
      keywords: [
        'login_required',
        'permission_required',
        'jwt_required',
        'requires_auth',
        'before_action',
      ],
      pattern:
        /^\s*#\s*(?:@(?:login_required|permission_required|jwt_required|requires_auth|auth\.login_required)\b|before_action\s+:(?:authenticate|authorize|require_login|require_admin)\w*)/,
    },
  ],
};

const CLIENT_SIDE_ADMIN_ROUTE: HintRule = {
  id: 'access/client-side-admin-route',
  category: 'access-control',
  severity: 'low',
  description:
    'A browser route to an admin section: a client-side guard only hides the page, the server must check every call it makes.',
  message:
    'A browser route leads to an admin section; its guard runs in the browser and only hides the page, so check that every API call it makes is authorised on the server.',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      // The quoted path's start: `admin` alone is too common a word to test every line it is on.
      keywords: ["'admin", '"admin', '`admin', "'/admin", '"/admin', '`/admin'],
      pattern:
        /\bpath\s*[:=]\s*\{?\s*["'`]\/?(?:admin|administration|administrator)\b[^"'`]*["'`]/i,
      // A route table, not a request's options.
      fileRequires:
        /\b(?:Routes|RouterModule|createBrowserRouter|createRouter|useRoutes|VueRouter|canActivate)\b|<Route\b/,
    },
  ],
};

const SPOOFABLE_CLIENT_ADDRESS: HintRule = {
  id: 'access/forwarded-for-header',
  category: 'access-control',
  severity: 'medium',
  description:
    'The client address read from X-Forwarded-For or a similar header, which any client can set unless a trusted proxy overwrites it.',
  message:
    'The client address comes from a header any client can set (X-Forwarded-For and the like), so rate limits, allow-lists and audit logs keyed on it can be bypassed; use the proxy-validated address.',
  matchers: [
    {
      kind: 'code',
      languages: ['any'],
      keywords: [
        'x-forwarded-for',
        'x-real-ip',
        'true-client-ip',
        'cf-connecting-ip',
        'http_x_forwarded_for',
        'http_x_real_ip',
      ],
      isKeywordInsideWords: true,
      pattern:
        /(?:headers?\s*(?:\[\s*|\.get\s*\(\s*|\.)|getHeader\s*\(\s*|header\s*\(\s*|Header\.Get\s*\(\s*|\bget\s*\(\s*|META\s*\[\s*|META\.get\s*\(\s*|\$_SERVER\s*\[\s*|request\.env\s*\[\s*)["']?(?:x-forwarded-for|x-real-ip|true-client-ip|cf-connecting-ip|HTTP_X_FORWARDED_FOR|HTTP_X_REAL_IP)\b/i,
      // Logging the header, or a proxy setting it, trusts nothing.
      unless:
        /\b(?:log(?:ger)?|console|print|debug|info|warn)\s*[.(]|\bset(?:Header)?\s*\(\s*["']x-|\.(?:append|add)\s*\(\s*["']x-|proxy_set_header/i,
    },
  ],
};

const OBFUSCATED_STRING: HintRule = {
  id: 'access/obfuscated-string',
  category: 'access-control',
  severity: 'low',
  description:
    'A string assembled at run time from base-36 numbers, which hides what it names (a route, a key, a command).',
  message:
    'This string is assembled from encoded numbers so that it cannot be read or searched for; decode it and check what it hides (a route, a key, a command).',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      keywords: ['tostring(36'],
      pattern: /\(\s*\d{3,}\s*\)\s*\.toString\s*\(\s*36\s*\)/,
      isStringScanned: false,
    },
  ],
};

export const ACCESS_CONTROL_CATEGORY: CategoryRules = {
  category: 'access-control',
  label: 'Access control and exposure',
  rules: [
    DIRECTORY_LISTING,
    LOG_FILES_SERVED,
    OPERATIONAL_ENDPOINT,
    DISABLED_ACCESS_CHECK,
    CLIENT_SIDE_ADMIN_ROUTE,
    SPOOFABLE_CLIENT_ADDRESS,
    OBFUSCATED_STRING,
  ],
  examples: readExamples(EXAMPLES, 'access-control.examples.json'),
};
