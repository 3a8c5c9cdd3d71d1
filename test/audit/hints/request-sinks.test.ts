import { describe, it } from 'vitest';
import {
  expectHint,
  expectNoHint,
  lines,
  type NegativeCase,
  type PositiveCase,
} from './hint-cases.js';

// A request value that reaches the sink through a variable is one severity lower than a direct read.
const positives: PositiveCase[] = [
  [
    'servlet writer output of a parameter',
    'src/Search.java',
    'response.getWriter().println("<p>" + request.getParameter("q") + "</p>");',
    'xss/request-html-response',
    1,
    'medium',
  ],
  [
    'express HTML built by concatenation and sent',
    'src/hello.js',
    lines(
      'const name = req.query.name;',
      "const html = '<h1>' + name + '</h1>';",
      'res.send(html);',
    ),
    'xss/request-html-response',
    3,
    'low',
  ],
  [
    'express redirect to a query value',
    'src/login.js',
    lines('const next = req.query.next;', 'res.redirect(next);'),
    'redirect/request-target',
    2,
    'low',
  ],
  [
    'servlet sendRedirect of a parameter',
    'src/Login.java',
    lines('String back = request.getParameter("back");', 'response.sendRedirect(back);'),
    'redirect/request-target',
    2,
    'low',
  ],
  [
    'php Location header from $_GET',
    'web/next.php',
    lines('<?php', "$next = $_GET['next'];", 'header("Location: " . $next);'),
    'redirect/request-target',
    3,
    'low',
  ],
  [
    'mongo filter of destructured body fields',
    'src/auth.js',
    lines(
      'const { username, password } = req.body;',
      "const user = await db.collection('users').findOne({ username, password });",
    ),
    'nosql/request-filter',
    2,
    'medium',
  ],
  [
    '$where built by concatenation',
    'src/products.js',
    "const items = await Product.find({ $where: 'this.price < ' + max });",
    'nosql/request-filter',
    1,
    'high',
  ],
  [
    'pymongo find of the request body',
    'app/orders.py',
    lines('query = request.get_json()', 'found = list(db.orders.find(query))'),
    'nosql/request-filter',
    2,
    'medium',
  ],
  [
    'java DocumentBuilderFactory without hardening',
    'src/Import.java',
    'DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();',
    'xml/external-entities',
    1,
    'high',
  ],
  [
    'libxmljs noent: true',
    'src/import.js',
    'const doc = libxmljs.parseXml(req.body.xml, { noent: true });',
    'xml/external-entities',
    1,
    'high',
  ],
  [
    'php LIBXML_NOENT',
    'web/import.php',
    lines('<?php', '$doc->loadXML($xml, LIBXML_NOENT);'),
    'xml/external-entities',
    2,
    'high',
  ],
  [
    'pug.compile of a request template',
    'src/preview.js',
    lines('const template = req.body.template;', 'const render = pug.compile(template);'),
    'template/request-source',
    2,
    'medium',
  ],
  [
    'render locals spread from the query',
    'src/profile.js',
    "res.render('profile', { ...req.query });",
    'template/request-source',
    1,
    'high',
  ],
  [
    'render_template_string of a request value',
    'app/card.py',
    lines('page = request.args.get("title")', 'return render_template_string(page)'),
    'template/request-source',
    2,
    'medium',
  ],
  [
    'java LDAP search with a request filter',
    'src/Directory.java',
    lines(
      'import javax.naming.directory.*;',
      'ctx.search("ou=people", "(uid=" + request.getParameter("user") + ")", controls);',
    ),
    'ldap/request-filter',
    2,
    'high',
  ],
  [
    'java XPath of a request expression',
    'src/Product.java',
    'String price = xpath.evaluate("/p[@sku=\'" + request.getParameter("sku") + "\']", doc);',
    'xpath/request-expression',
    1,
    'high',
  ],
  [
    'servlet cookie without flags',
    'src/Remember.java',
    lines('Cookie cookie = new Cookie("remember", token);', 'response.addCookie(cookie);'),
    'cookie/missing-flags',
    1,
    'low',
  ],
  [
    'express cookie without flags',
    'src/login.js',
    "res.cookie('sid', sid, { maxAge: 86400000 });",
    'cookie/missing-flags',
    1,
    'low',
  ],
  [
    'servlet session attribute from a parameter',
    'src/Role.java',
    lines(
      'String role = request.getParameter("role");',
      'request.getSession().setAttribute("role", role);',
    ),
    'session/request-value',
    2,
    'low',
  ],
];

const negatives: NegativeCase[] = [
  [
    'express HTML with an encoded value',
    'src/hello.js',
    lines(
      'const name = escapeHtml(req.query.name);',
      "const html = '<h1>' + name + '</h1>';",
      'res.send(html);',
    ),
    'xss/request-html-response',
  ],
  [
    'servlet writer output of an encoded parameter',
    'src/Search.java',
    lines(
      'String q = Encode.forHtml(request.getParameter("q"));',
      'out.println("<p>" + q + "</p>");',
    ),
    'xss/request-html-response',
  ],
  [
    'redirect to url_for',
    'app/logout.py',
    lines('target = request.args.get("x")', 'return redirect(url_for("index"))'),
    'redirect/request-target',
  ],
  [
    'servlet redirect to a fixed path',
    'src/Login.java',
    'response.sendRedirect(request.getContextPath() + "/home");',
    'redirect/request-target',
  ],
  [
    'mongo filter with $eq on a cast value',
    'src/auth.js',
    lines(
      'const username = String(req.body.username);',
      "const user = await db.collection('users').findOne({ username: { $eq: username } });",
    ),
    'nosql/request-filter',
  ],
  [
    'pymongo find with a literal filter',
    'app/orders.py',
    lines('status = str(request.get_json()["s"])', 'db.orders.find({"status": status})'),
    'nosql/request-filter',
  ],
  [
    'hardened DocumentBuilderFactory',
    'src/Import.java',
    lines(
      'DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();',
      'factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);',
    ),
    'xml/external-entities',
  ],
  [
    'libxmljs noent: false',
    'src/import.js',
    'parseXml(xml, { noent: false });',
    'xml/external-entities',
  ],
  [
    'pug.compileFile of a fixed view',
    'src/preview.js',
    lines("const render = pug.compileFile('views/p.pug');", 'res.send(render({ t: req.body.t }));'),
    'template/request-source',
  ],
  [
    'render_template_string of a constant with request data',
    'app/card.py',
    'return render_template_string(PAGE, title=request.args.get("title"))',
    'template/request-source',
  ],
  [
    'java LDAP search with filter arguments',
    'src/Directory.java',
    lines(
      'import javax.naming.directory.*;',
      'String user = request.getParameter("user");',
      'ctx.search("ou=people", "(uid={0})", new Object[] { user }, controls);',
    ),
    'ldap/request-filter',
  ],
  [
    'java XPath of a constant expression',
    'src/Product.java',
    'String price = xpath.evaluate("/catalog/product[@featured=\'true\']", doc);',
    'xpath/request-expression',
  ],
  [
    'servlet cookie with Secure and HttpOnly',
    'src/Remember.java',
    lines(
      'Cookie cookie = new Cookie("remember", token);',
      'cookie.setSecure(true);',
      'cookie.setHttpOnly(true);',
    ),
    'cookie/missing-flags',
  ],
  [
    'express cookie with flags',
    'src/login.js',
    "res.cookie('sid', sid, { httpOnly: true, secure: true });",
    'cookie/missing-flags',
  ],
  [
    'servlet session attribute of a constant',
    'src/Role.java',
    'request.getSession().setAttribute("role", "viewer");',
    'session/request-value',
  ],
];

console.log(`request sink rules: ${positives.length + negatives.length} cases`);

describe('request sink rules (redirect, NoSQL, XXE, templates, LDAP, XPath, cookies, session)', () => {
  it.each(positives)('%s', (_label, path, code, ruleId, line, severity) => {
    expectHint(path, code, ruleId, line, severity);
  });
  it.each(negatives)('near miss: %s', (_label, path, code, ruleId) => {
    expectNoHint(path, code, ruleId);
  });
});
