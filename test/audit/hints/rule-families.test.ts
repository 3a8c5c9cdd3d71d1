import { describe, it } from 'vitest';
import { expectHint, expectNoHint, lines } from './hint-cases.js';

// Each rule family added for issue 15: a vulnerable example and a safe look-alike.
describe('rule families: vulnerable examples and safe look-alikes', () => {
  it('weak randomness named by the next line, the method or the class', () => {
    const rule = 'crypto/insecure-random';
    expectHint(
      'src/Login.java',
      lines(
        'double value = new java.util.Random().nextDouble();',
        'String rememberMeKey = Double.toString(value);',
      ),
      rule,
      1,
      'high',
    );
    expectHint(
      'src/Reset.java',
      lines(
        'public String generateResetCode() {',
        '  int code = (int) (Math.random() * 1000000);',
        '  return String.valueOf(code);',
        '}',
      ),
      rule,
      2,
      'medium',
    );
    expectHint(
      'app/accounts.py',
      lines(
        'def make_temporary_password(length=12):',
        '    return "".join(random.choice(ALPHABET) for _ in range(length))',
      ),
      rule,
      2,
      'medium',
    );
    expectNoHint(
      'src/Login.java',
      lines(
        'long value = new java.security.SecureRandom().nextLong();',
        'String rememberMeKey = Long.toString(value);',
      ),
      rule,
    );
    expectNoHint(
      'src/retry.js',
      lines(
        'function backoff(attempt) {',
        '  const jitter = Math.floor(Math.random() * 250);',
        '  return 2 ** attempt * 100 + jitter;',
        '}',
      ),
      rule,
    );
    expectNoHint(
      'src/session.service.ts',
      lines(
        'export class SessionService {',
        '  colour(): string {',
        '    return palette[Math.floor(Math.random() * palette.length)];',
        '  }',
        '}',
      ),
      rule,
    );
  });

  it('JWT verification without pinned algorithms, in four languages', () => {
    const rule = 'jwt/unpinned-algorithm';
    expectHint(
      'src/auth.js',
      lines('jwt.verify(', '  token,', '  publicKey,', '  (err, user) => done(err, user),', ');'),
      rule,
      1,
      'medium',
    );
    expectNoHint(
      'src/auth.js',
      lines('jwt.verify(', '  token,', '  publicKey,', "  { algorithms: ['RS256'] },", ');'),
      rule,
    );
    expectHint(
      'src/auth.ts',
      'export const isAuthorized = () => expressJwt({ secret: publicKey });',
      rule,
      1,
      'medium',
    );
    expectNoHint(
      'src/auth.ts',
      "export const isAuthorized = () => expressjwt({ secret: publicKey, algorithms: ['RS256'] });",
      rule,
    );
    expectHint('app/auth.py', 'claims = jwt.decode(token, PUBLIC_KEY)', rule, 1, 'medium');
    expectNoHint(
      'app/auth.py',
      'claims = jwt.decode(token, PUBLIC_KEY, algorithms=["RS256"])',
      rule,
    );
    expectHint(
      'src/Tokens.java',
      'return Jwts.parser().setSigningKey(key).parse(token).getBody();',
      rule,
      1,
      'medium',
    );
    expectNoHint(
      'src/Tokens.java',
      'return Jwts.parser().setSigningKey(key).parseClaimsJws(token).getBody();',
      rule,
    );
    expectHint(
      'auth/parse.go',
      lines(
        'return jwt.Parse(s, func(t *jwt.Token) (interface{}, error) {',
        '\treturn key, nil',
        '})',
      ),
      rule,
      1,
      'medium',
    );
    expectNoHint(
      'auth/parse.go',
      lines(
        'return jwt.Parse(s, func(t *jwt.Token) (interface{}, error) {',
        '\tif _, ok := t.Method.(*jwt.SigningMethodHMAC); !ok { return nil, errBad }',
        '\treturn key, nil',
        '})',
      ),
      rule,
    );
  });

  it('zip slip: an archive entry name joined into a path that is written', () => {
    const rule = 'path-traversal/request-input-file-access';
    const unzip = (check: string[]): string =>
      lines(
        "const AdmZip = require('adm-zip');",
        'function extract(buffer, target) {',
        '  for (const entry of new AdmZip(buffer).getEntries()) {',
        '    const destination = path.resolve(target, entry.entryName);',
        ...check,
        '    fs.writeFileSync(destination, entry.getData());',
        '  }',
        '}',
      );
    expectHint('src/extract.js', unzip([]), rule, 5, 'medium');
    expectNoHint(
      'src/extract.js',
      unzip(["    if (!destination.startsWith(target + path.sep)) throw new Error('escape');"]),
      rule,
    );
    expectHint(
      'src/Unzip.java',
      lines(
        'import java.util.zip.*;',
        'while ((entry = zip.getNextEntry()) != null) {',
        '  File target = new File(dir, entry.getName());',
        '  OutputStream out = new FileOutputStream(target);',
        '}',
      ),
      rule,
      3,
      'medium',
    );
  });

  it('code run in a vm sandbox built from request data, and vm2', () => {
    expectHint(
      'routes/b2b.js',
      lines(
        'module.exports = () => ({ body }, res) => {',
        '  const sandbox = { safeEval, orderLinesData: body.orderLinesData };',
        "  vm.runInContext('safeEval(orderLinesData)', sandbox, { timeout: 2000 });",
        '};',
      ),
      'dynamic-code/js-vm-run',
      3,
      'medium',
    );
    expectNoHint(
      'routes/b2b.js',
      lines(
        'module.exports = () => ({ body }, res) => {',
        '  const sandbox = { total: 0 };',
        "  vm.runInContext('total = 1 + 1', sandbox, { timeout: 2000 });",
        '};',
      ),
      'dynamic-code/js-vm-run',
    );
    // Fixed code that parses request data in the sandbox, rather than evaluating it.
    expectNoHint(
      'routes/upload.js',
      lines(
        'module.exports = () => (req, res) => {',
        '  const sandbox = { libxml, data: req.file.buffer.toString() };',
        "  vm.runInContext('libxml.parseXml(data, { noblanks: true })', sandbox, { timeout: 2000 });",
        '};',
      ),
      'dynamic-code/js-vm-run',
    );
    for (const code of [
      'eval(expr)',
      'evaluate(expr)',
      'new Function(expr)()',
      'require(expr)',
      'vm2Exec(expr)',
    ]) {
      expectHint(
        'routes/calc.js',
        lines(
          'module.exports = () => (req, res) => {',
          '  const sandbox = { expr: req.body.expr };',
          `  vm.runInNewContext('${code}', sandbox);`,
          '};',
        ),
        'dynamic-code/js-vm-run',
        3,
        'medium',
      );
    }
    expectHint(
      'src/formula.js',
      lines(
        "const { VM } = require('vm2');",
        'app.post("/f", (req, res) => res.json(new VM().run(req.body.formula)));',
      ),
      'dynamic-code/js-vm-run',
      2,
      'high',
    );
    expectNoHint(
      'src/formula.js',
      lines(
        "const { VM } = require('vm2');",
        'app.post("/f", (req, res) => res.json(new VM().run("1 + 1")));',
      ),
      'dynamic-code/js-vm-run',
    );
  });

  it('a literal HMAC or JWT key passed by position', () => {
    const rule = 'secret/literal-signing-key';
    expectHint(
      'lib/security.ts',
      "export const hmac = (d: string) => crypto.createHmac('sha256', 'pa4qacea4VK9t9nGv7yZtwmj').update(d).digest('hex');",
      rule,
      1,
      'high',
    );
    expectNoHint(
      'lib/security.ts',
      "export const hmac = (d: string) => crypto.createHmac('sha256', process.env.HMAC_KEY).update(d).digest('hex');",
      rule,
    );
    expectHint(
      'lib/tokens.ts',
      lines('return jwt.sign(', '  { sub: user.id },', "  'super-secret-signing-key',", ');'),
      rule,
      1,
      'high',
    );
    expectNoHint(
      'lib/tokens.ts',
      lines('return jwt.sign(', '  { sub: user.id },', '  config.jwtSecret,', ');'),
      rule,
    );
    expectHint(
      'app/sign.py',
      'digest = hmac.new(b"shared-key-2020", body, hashlib.sha256).hexdigest()',
      rule,
      1,
      'high',
    );
  });

  it('readable hard-coded passwords, and labels, routes and field names that only mention passwords', () => {
    const rule = 'secret/readable-password';
    expectHint(
      'test/api.spec.ts',
      "const testingPassword = 'IamUsedForTesting';",
      rule,
      1,
      'medium',
    );
    expectHint('app/db.py', 'DB_PASSWORD = "Reporting2023!"', rule, 1, 'medium');
    expectHint(
      'config/db.php',
      "$config = ['user' => 'admin', 'password' => 'letmein2024'];",
      rule,
      1,
      'medium',
    );
    expectHint(
      'src/Db.java',
      'private static final String PASSWORD = "Sh0pAdmin!";',
      rule,
      1,
      'medium',
    );
    for (const safe of [
      "const passwordHint = 'Use at least eight characters';",
      "export const PASSWORD_RESET_ROUTE = '/forgot-password';",
      "const field = { name: 'password', type: 'password' };",
      "const error = { password: 'PASSWORD_TOO_SHORT' };",
      'DB_PASSWORD = os.environ["DB_PASSWORD"]',
      "if (password === 'hunter22') deny();",
    ]) {
      expectNoHint('src/a.ts', safe, rule);
    }
    // Rails routes to a controller's password actions.
    for (const route of [
      'get "forgot_password" => "password_resets#forgot_password"',
      "post 'password_resets' => 'password_resets#reset_password'",
      'match "reset_password", to: "password_resets#reset", via: [:get]',
    ]) {
      expectNoHint('config/routes.rb', route, rule);
    }
    expectHint('config/seeds.rb', 'admin_password = "Admin#2024"', rule, 1, 'medium');
  });

  it('Cipher.getInstance with its argument on the next line', () => {
    expectHint(
      'src/Vault.java',
      lines('Cipher cipher = Cipher.getInstance(', '        "DES/ECB/PKCS5Padding");'),
      'crypto/weak-cipher',
      1,
      'medium',
    );
    expectNoHint(
      'src/Vault.java',
      lines('Cipher cipher = Cipher.getInstance(', '        "AES/GCM/NoPadding");'),
      'crypto/weak-cipher',
    );
  });

  it('stored-procedure calls built by concatenation', () => {
    const servlet = (call: string): string =>
      lines(
        'void doGet(HttpServletRequest request) throws Exception {',
        '  String proc = request.getParameter("report");',
        `  String sql = ${call};`,
        '  connection.prepareCall(sql).execute();',
        '}',
      );
    expectHint(
      'src/Report.java',
      servlet('"{call " + proc + "}"'),
      'sql/string-built-query',
      3,
      'high',
    );
    expectNoHint('src/Report.java', servlet('"{call daily_summary(?)}"'), 'sql/string-built-query');
  });

  it('ProcessBuilder with request input in its argument list', () => {
    const code = (arg: string): string =>
      lines(
        'void run(HttpServletRequest request) throws Exception {',
        '  String m = request.getHeader("X-M");',
        '  java.util.List<String> args = new java.util.ArrayList<>();',
        '  args.add("sh"); args.add("-c");',
        `  args.add(${arg});`,
        '  new ProcessBuilder(args).start();',
        '}',
      );
    expectHint('src/Echo.java', code('"echo " + m'), 'cmd-exec/java-process-builder', 6, 'medium');
    expectNoHint('src/Echo.java', code('"echo hello"'), 'cmd-exec/java-process-builder');
  });

  it('cookies without Secure, or with HttpOnly turned off, in Java, Python, PHP and Go', () => {
    const rule = 'cookie/missing-flags';
    expectHint(
      'app/views.py',
      'resp.set_cookie("s", token, secure=True, httponly=False)',
      rule,
      1,
      'low',
    );
    // A cookie scripts may read (a CSRF token) is fine when it only travels over HTTPS.
    expectNoHint('app/views.py', 'resp.set_cookie("csrf", token, secure=True)', rule);
    expectHint(
      'src/Pref.java',
      lines('Cookie c = new Cookie("theme", t);', 'c.setSecure(false);', 'c.setHttpOnly(true);'),
      rule,
      1,
      'low',
    );
    expectNoHint(
      'src/Pref.java',
      lines(
        'javax.servlet.http.Cookie c =',
        '    new javax.servlet.http.Cookie("theme", t);',
        'c.setSecure(true);',
        'c.setHttpOnly(true);',
      ),
      rule,
    );
    expectHint('app/views.py', 'resp.set_cookie("session", token)', rule, 1, 'low');
    expectNoHint(
      'app/views.py',
      'resp.set_cookie("session", token, secure=True, httponly=True)',
      rule,
    );
    expectHint(
      'web/login.php',
      "<?php setcookie('sid', $sid, time() + 3600, '/');",
      rule,
      1,
      'low',
    );
    expectNoHint(
      'web/login.php',
      "<?php setcookie('sid', $sid, ['secure' => true, 'httponly' => true]);",
      rule,
    );
    // Positional flags after arguments that hold calls (`time() + 3600`, `$_SERVER['HTTP_HOST']`).
    expectNoHint(
      'web/login.php',
      "<?php setcookie('sid', $sid, time() + 3600, '/', $_SERVER['HTTP_HOST'], true, true);",
      rule,
    );
    expectHint(
      'web/login.php',
      "<?php setcookie('sid', $sid, time() + 3600, '/', $_SERVER['HTTP_HOST'], false, true);",
      rule,
      1,
      'low',
    );
    expectHint(
      'web/login.go',
      lines('http.SetCookie(w, &http.Cookie{', '\tName: "sid",', '\tValue: sid,', '})'),
      rule,
      1,
      'low',
    );
    expectNoHint(
      'web/login.go',
      lines(
        'http.SetCookie(w, &http.Cookie{',
        '\tName: "sid",',
        '\tSecure: true,',
        '\tHttpOnly: true,',
        '})',
      ),
      rule,
    );
  });

  it('NoSQL filters written as objects holding request values', () => {
    const rule = 'nosql/request-filter';
    expectHint(
      'routes/reviews.js',
      lines(
        'db.reviews.update(',
        '  { _id: req.body.id },',
        '  { $set: { message: req.body.message } },',
        ');',
      ),
      rule,
      1,
      'high',
    );
    expectNoHint('routes/reviews.js', 'db.reviews.findOne({ _id: String(req.body.id) });', rule);
    expectNoHint(
      'routes/users.js',
      'UserModel.findOne({ where: { email: req.body.email } });',
      rule,
    );
    expectNoHint('routes/orders.js', 'db.orders.find({ orderId: req.params.id });', rule);
    expectHint(
      'app/login.py',
      'user = users.find_one({"email": request.json["email"], "password": request.json["password"]})',
      rule,
      1,
      'high',
    );
    expectHint(
      'web/login.php',
      "<?php $user = $users->findOne(['email' => $_POST['email']]);",
      rule,
      1,
      'high',
    );
  });

  it('templates compiled from request data in PHP, Ruby and Go', () => {
    const rule = 'template/request-source';
    expectHint(
      'web/greet.php',
      "<?php $t = $twig->createTemplate($_POST['greeting']);",
      rule,
      1,
      'high',
    );
    expectNoHint(
      'web/greet.php',
      "<?php echo $twig->render('greeting.html.twig', ['g' => $_POST['greeting']]);",
      rule,
    );
    expectHint(
      'app/controllers/snippets_controller.rb',
      lines('def preview', '  template = ERB.new(params[:snippet])', 'end'),
      rule,
      2,
      'high',
    );
    expectHint(
      'web/page.go',
      lines(
        'import "html/template"',
        'func h(w http.ResponseWriter, r *http.Request) {',
        '\tt, _ := template.New("p").Parse(r.FormValue("tpl"))',
        '}',
      ),
      rule,
      3,
      'high',
    );
  });

  it('XPath expressions built from request data, whatever the receiver is called', () => {
    const rule = 'xpath/request-expression';
    const servlet = (id: string): string =>
      lines(
        'import javax.xml.xpath.*;',
        'void doPost(HttpServletRequest request) throws Exception {',
        `  String id = ${id};`,
        '  String expression = "/Employees/Employee[@emplid=\'" + id + "\']";',
        '  String name = xp.compile(expression).evaluate(doc);',
        '}',
      );
    expectHint('src/Emp.java', servlet('request.getParameter("id")'), rule, 5, 'medium');
    expectNoHint('src/Emp.java', servlet('"1001"'), rule);
    expectHint(
      'web/users.php',
      lines(
        '<?php',
        '$xp = new DOMXPath($doc);',
        '$nodes = $xp->query("//user[login/text()=\'" . $_POST[\'login\'] . "\']");',
      ),
      rule,
      3,
      'high',
    );
  });

  it('HTML written with request data by Go, Flask and PHP echo', () => {
    const rule = 'xss/request-html-response';
    expectHint(
      'web/hello.go',
      lines(
        'func Hello(w http.ResponseWriter, r *http.Request) {',
        '\tpage := "<h1>Hello " + r.URL.Query().Get("name") + "</h1>"',
        '\tw.Write([]byte(page))',
        '}',
      ),
      rule,
      3,
      'low',
    );
    expectNoHint(
      'web/hello.go',
      lines(
        'func Hello(w http.ResponseWriter, r *http.Request) {',
        '\tpage := "<h1>Hello " + html.EscapeString(r.URL.Query().Get("name")) + "</h1>"',
        '\tw.Write([]byte(page))',
        '}',
      ),
      rule,
    );
    expectHint(
      'app/views.py',
      lines(
        'from flask import Flask, request',
        '@app.route("/hi")',
        'def hi():',
        '    body = f"<h1>Hello {request.args[\'name\']}</h1>"',
        '    return body',
      ),
      rule,
      5,
      'low',
    );
    expectHint(
      'web/hi.php',
      lines('<?php', "$name = $_GET['name'];", 'echo "<h2>Welcome " . $name . "</h2>";'),
      rule,
      3,
      'low',
    );
    expectNoHint(
      'web/hi.php',
      lines(
        '<?php',
        "$name = htmlspecialchars($_GET['name']);",
        'echo "<h2>Welcome " . $name . "</h2>";',
      ),
      rule,
    );
  });
});
