import { describe, it } from 'vitest';
import {
  expectHint,
  expectNoHint,
  lines,
  type NegativeCase,
  type PositiveCase,
} from './hint-cases.js';

const LISTING = 'access/directory-listing';
const LOGS = 'access/log-files-served';
const OPERATIONAL = 'access/unauthenticated-operational-endpoint';
const DISABLED = 'access/commented-out-check';
const ADMIN_ROUTE = 'access/client-side-admin-route';
const FORWARDED = 'access/forwarded-for-header';
const OBFUSCATED = 'access/obfuscated-string';
const SUBSTRING = 'redirect/substring-allow-list';

const positives: PositiveCase[] = [
  [
    'python http.server over a share',
    'serve.py',
    'httpd = HTTPServer(("0.0.0.0", 8000), SimpleHTTPRequestHandler)',
    LISTING,
    1,
    'medium',
  ],
  [
    'python -m http.server in a script',
    'serve.sh',
    'cd /srv/share && python3 -m http.server 8000',
    LISTING,
    1,
    'medium',
  ],
  [
    'serve-index on an express folder',
    'server.ts',
    "app.use('/ftp', serveIndexMiddleware, serveIndex('ftp', { icons: true }))",
    LISTING,
    1,
    'medium',
  ],
  [
    'Go http.FileServer over a folder',
    'main.go',
    lines('func main() {', '\tfs := http.FileServer(http.Dir("./static"))', '}'),
    LISTING,
    2,
    'medium',
  ],
  [
    'nginx autoindex',
    'site.conf',
    lines('location / {', '  autoindex on;', '}'),
    LISTING,
    2,
    'medium',
  ],
  ['Apache Options Indexes', '.htaccess', 'Options +FollowSymLinks +Indexes', LISTING, 1, 'medium'],
  [
    'a logs route with a file server',
    'server.ts',
    "app.use('/support/logs/:file', logFileServer())",
    LOGS,
    1,
    'medium',
  ],
  [
    'express /metrics',
    'server.ts',
    "app.get('/metrics', metrics.serveMetrics())",
    OPERATIONAL,
    1,
    'medium',
  ],
  [
    'flask /debug route',
    'app.py',
    lines('@app.route("/debug/vars")', 'def debug_vars():', '    return dict(os.environ)'),
    OPERATIONAL,
    1,
    'medium',
  ],
  [
    'Go pprof on the default mux',
    'main.go',
    lines('import (', '\t"net/http"', '\t_ "net/http/pprof"', ')'),
    OPERATIONAL,
    3,
    'medium',
  ],
  [
    'a checked route commented out above the same route served without the check',
    'routes/index.js',
    lines(
      '// app.get("/admin/users", isAdmin, adminHandler.list);',
      'app.get("/admin/users", adminHandler.list);',
    ),
    DISABLED,
    1,
    'medium',
  ],
  [
    'a commented-out express authorisation',
    'server.ts',
    lines(
      "app.post('/api/Products', security.isAuthorized())",
      "// app.put('/api/Products/:id', security.isAuthorized())",
    ),
    DISABLED,
    2,
    'medium',
  ],
  [
    'a commented-out Spring check',
    'AdminController.java',
    lines('    // @PreAuthorize("hasRole(\'ADMIN\')")', '    @GetMapping("/admin")'),
    DISABLED,
    1,
    'medium',
  ],
  [
    'a commented-out Django decorator',
    'views.py',
    lines('# @login_required', 'def report(request):', '    return render(request, "r.html")'),
    DISABLED,
    1,
    'medium',
  ],
  [
    'a commented-out Rails filter',
    'admin_controller.rb',
    lines(
      'class AdminController < ApplicationController',
      '  # before_action :authenticate_user!',
      'end',
    ),
    DISABLED,
    2,
    'medium',
  ],
  [
    'an Angular admin route',
    'app.routing.ts',
    lines(
      'const routes: Routes = [',
      "  { path: 'administration', component: AdminComponent, canActivate: [AdminGuard] },",
      ']',
    ),
    ADMIN_ROUTE,
    2,
    'low',
  ],
  [
    'a rate limit keyed on X-Forwarded-For',
    'server.ts',
    "  keyGenerator ({ headers, ip }) { return headers['X-Forwarded-For'] || ip },",
    FORWARDED,
    1,
    'medium',
  ],
  [
    'PHP HTTP_X_FORWARDED_FOR',
    'admin.php',
    "$ip = $_SERVER['HTTP_X_FORWARDED_FOR'];",
    FORWARDED,
    1,
    'medium',
  ],
  [
    'Flask X-Real-IP',
    'app.py',
    "client = request.headers.get('X-Real-IP')",
    FORWARDED,
    1,
    'medium',
  ],
  [
    'a route name hidden in base 36',
    'app.routing.ts',
    'if (path.match(token1(25, 184) + (36669).toString(36).toLowerCase())) {',
    OBFUSCATED,
    1,
    'low',
  ],
  [
    'an allow-list checked by includes',
    'lib/insecurity.ts',
    '  allowed = allowed || url.includes(allowedUrl)',
    SUBSTRING,
    1,
    'medium',
  ],
  [
    'an allow-list checked by indexOf',
    'redirect.js',
    'if (redirectTarget.indexOf(whitelistedHost) !== -1) res.redirect(redirectTarget);',
    SUBSTRING,
    1,
    'medium',
  ],
  ['python allowed in url', 'views.py', '    if allowed in next_url:', SUBSTRING, 1, 'medium'],
  [
    'Go strings.Contains',
    'web.go',
    'if strings.Contains(target, allowedHost) {',
    SUBSTRING,
    1,
    'medium',
  ],
];

const negatives: NegativeCase[] = [
  [
    'an old route kept as a comment above its replacement, which checks more',
    'routes/index.js',
    lines(
      '// app.get("/benefits", isLoggedIn, benefitsHandler.displayBenefits);',
      '// app.post("/benefits", isLoggedIn, benefitsHandler.updateBenefits);',
      '// Only administrators may see benefits',
      'app.get("/benefits", isLoggedIn, isAdmin, benefitsHandler.displayBenefits);',
      'app.post("/benefits", isLoggedIn, isAdmin, benefitsHandler.updateBenefits);',
    ),
    DISABLED,
  ],
  [
    'a whole route commented out with its inline handler',
    'routes/index.js',
    lines(
      '// app.get("/learn", isLoggedIn, function(req, res, next) {',
      '//     return res.redirect(req.query.url);',
      '// });',
    ),
    DISABLED,
  ],
  [
    'the standard library defining the handler',
    'http/server.py',
    'class SimpleHTTPRequestHandler(BaseHTTPRequestHandler):',
    LISTING,
  ],
  [
    'static files without a listing',
    'server.js',
    "app.use('/assets', express.static('public', { index: false }))",
    LISTING,
  ],
  [
    'the serve-index import alone',
    'server.js',
    "const serveIndex = require('serve-index')",
    LISTING,
  ],
  ['nginx autoindex off', 'site.conf', 'autoindex off;', LISTING],
  ['Apache Indexes turned off', '.htaccess', 'Options -Indexes +FollowSymLinks', LISTING],
  [
    'a logs route behind a check',
    'server.ts',
    "app.use('/support/logs', security.isAuthorized(), logFileServer())",
    LOGS,
  ],
  ['a login route', 'server.ts', "app.post('/rest/user/login', login())", LOGS],
  [
    'metrics behind a check',
    'server.ts',
    "app.get('/metrics', requireAuth('ops'), serveMetrics())",
    OPERATIONAL,
  ],
  [
    'flask metrics with login_required below',
    'app.py',
    lines(
      '@app.route("/metrics")',
      '@login_required',
      'def metrics():',
      '    return generate_latest()',
    ),
    OPERATIONAL,
  ],
  ['a debug log line', 'server.ts', "debug('/metrics scraped')", OPERATIONAL],
  [
    'prose about an access check',
    'server.ts',
    '// Every route below needs security.isAuthorized(); see docs/auth.md.',
    DISABLED,
  ],
  [
    'an active express check',
    'server.ts',
    "app.put('/api/Products/:id', security.isAuthorized())",
    DISABLED,
  ],
  ['an active Spring check', 'A.java', '    @PreAuthorize("hasRole(\'ADMIN\')")', DISABLED],
  [
    'an admin path in request options',
    'client.ts',
    lines('const req = https.request({', "  path: '/admin/stats',", '});'),
    ADMIN_ROUTE,
  ],
  [
    'req.ip behind trust proxy',
    'server.ts',
    "app.set('trust proxy', 1); const ip = req.ip;",
    FORWARDED,
  ],
  [
    'logging the forwarding chain',
    'server.ts',
    "logger.info('chain', req.headers['x-forwarded-for'])",
    FORWARDED,
  ],
  [
    'a proxy setting the header',
    'proxy.js',
    "proxyReq.setHeader('X-Forwarded-For', req.socket.remoteAddress);",
    FORWARDED,
  ],
  ['a base-36 id from the clock', 'id.js', 'const id = Date.now().toString(36);', OBFUSCATED],
  [
    'membership in the allow-list',
    'redirect.ts',
    'return allowedUrls.includes(safeTarget);',
    SUBSTRING,
  ],
  [
    'an exact origin check',
    'redirect.ts',
    'return allowedOrigins.has(new URL(url).origin);',
    SUBSTRING,
  ],
  [
    'python netloc in the allow-list',
    'views.py',
    'if urlparse(url).netloc in ALLOWED_HOSTS:',
    SUBSTRING,
  ],
];

describe('access-control and allow-list rules', () => {
  it.each(positives)('%s', (_label, path, code, ruleId, line, severity) => {
    expectHint(path, code, ruleId, line, severity);
  });
  it.each(negatives)('near miss: %s', (_label, path, code, ruleId) => {
    expectNoHint(path, code, ruleId);
  });
});

describe('redirects after an exact host check', () => {
  const python = (condition: string): string =>
    lines(
      'def go(request):',
      '    target = request.GET.get("next", "/")',
      `    if ${condition}:`,
      '        return redirect(target)',
      '    return redirect("/")',
    );
  const javascript = (condition: string): string =>
    lines(
      "app.get('/go', (req, res) => {",
      '  const target = req.query.next;',
      `  if (${condition}) {`,
      '    return res.redirect(target);',
      '  }',
      "  res.redirect('/');",
      '});',
    );
  it.each([
    [
      'python urlparse(...).netloc in a list',
      'views.py',
      python,
      'urlparse(target).netloc in settings.REDIRECT_ALLOWED',
      'len(target) > 0',
    ],
    [
      'javascript new URL(...).origin in a set',
      'redirect.js',
      javascript,
      'allowedOrigins.has(new URL(target).origin)',
      'target.length > 0',
    ],
  ])('are not flagged: %s', (_label, path, build, check, otherTest) => {
    expectNoHint(path, build(check), 'redirect/request-target');
    // The same redirect under a test that checks nothing is flagged: the check is what clears it.
    expectHint(path, build(otherTest), 'redirect/request-target', 4, 'low');
  });
});

describe('statement ends', () => {
  it('a postfix increment ends its line, so the next statement is read on its own', () => {
    // The captcha pattern: an id taken with `counter++`, then an expression of constants and
    // numbers run through eval. Read as one statement, the array was never assigned.
    const code = lines(
      'function captchas () {',
      '  return (req, res) => {',
      '    const captchaId = req.app.locals.captchaId++',
      "    const operators = ['*', '+', '-']",
      '    const first = Math.floor((Math.random() * 10) + 1)',
      '    const op = operators[Math.floor((Math.random() * 3))]',
      '    const expression = first.toString() + op + first.toString()',
      '    const answer = eval(expression).toString()',
      '    res.json({ captchaId, expression, answer })',
      '  }',
      '}',
    );
    expectNoHint('routes/captcha.ts', code, 'dynamic-code/js-eval');
    const fromRequest = code.replace('operators[Math.floor((Math.random() * 3))]', 'req.query.op');
    expectHint('routes/captcha.ts', fromRequest, 'dynamic-code/js-eval', 8, 'high');
  });

  it('a captcha drawn with Math.random is not a weak secret', () => {
    expectNoHint(
      'routes/captcha.ts',
      lines(
        'function captchas () {',
        '  const captchaTerm = Math.floor((Math.random() * 10) + 1)',
        '}',
      ),
      'crypto/insecure-random',
    );
  });
});

describe('a hostile file of the new rules keywords', () => {
  it('is indexed whole: the real route planted after the storm is still found', () => {
    const storm = [
      ('allowed' + 'x'.repeat(2_000) + ' ').repeat(100) + ' in url',
      ('url'.repeat(300) + '.includes(allow' + 'x'.repeat(300) + ' ').repeat(100),
      ("path: '/admin" + 'a'.repeat(2_000) + ' ').repeat(50),
      ("headers['x-forwarded-for" + '-'.repeat(2_000) + "' ").repeat(50),
      ("app.get('/metrics" + '/'.repeat(3_000) + "' ").repeat(30),
      ("app.use('/x" + '/logs'.repeat(1_000) + "', a(").repeat(20),
      ...Array.from({ length: 200 }, () => `// app.get(${'isAuthorized('.repeat(50)}`),
    ];
    const code = [...storm, "app.get('/metrics', metrics.serveMetrics())"].join('\n');
    expectHint('server.ts', code, OPERATIONAL, storm.length + 1, 'medium');
  });
});
