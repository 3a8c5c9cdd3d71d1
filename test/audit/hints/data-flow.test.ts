import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { expectHint, expectNoHint, lines } from './hint-cases.js';

// A servlet whose doPost reads `param` from the request, transforms it into `bar` with `steps`, then
// hands `bar` to `sink`: the shape of the OWASP Benchmark's test cases, written here from scratch.
function servlet(steps: string[], sink: string, helpers: string[] = []): string {
  return lines(
    'import javax.servlet.http.*;',
    'public class Case extends HttpServlet {',
    '  public void doPost(HttpServletRequest request, HttpServletResponse response) throws Exception {',
    '    String param = request.getParameter("name");',
    ...steps.map((step) => `    ${step}`),
    `    ${sink}`,
    '  }',
    ...helpers.map((helper) => `  ${helper}`),
    '}',
  );
}

const SQL = 'sql/string-built-query';
const SESSION = 'session/request-value';
const FILE = 'path-traversal/request-input-file-access';
const sinkLine = (steps: string[]): number => 5 + steps.length;
const sqlSink =
  'java.sql.ResultSet rs = statement.executeQuery("SELECT * FROM users WHERE name = \'" + bar + "\'");';

describe('in-file data flow decides whether a sink sees request input', () => {
  const vulnerable: [string, string[], string, string[]?][] = [
    ['a plain assignment', ['String bar = param;'], sqlSink],
    [
      'StringBuilder.append',
      [
        'StringBuilder sb = new StringBuilder();',
        'sb.append("x").append(param);',
        'String bar = sb.toString();',
      ],
      sqlSink,
    ],
    ['String.format', ['String bar = String.format("%s-x", param);'], sqlSink],
    ['+= onto a constant', ['String bar = "prefix";', 'bar += param;'], sqlSink],
    [
      'a map entry put under the key that is read',
      [
        'java.util.Map<String, String> map = new java.util.HashMap<>();',
        'map.put("keyA", "safe");',
        'map.put("keyB", param);',
        'String bar = map.get("keyB");',
      ],
      sqlSink,
    ],
    [
      'the list element that holds the value after a removal',
      [
        'java.util.List<String> list = new java.util.ArrayList<>();',
        'list.add("safe");',
        'list.add(param);',
        'list.add("moresafe");',
        'list.remove(0);',
        'String bar = list.get(0);',
      ],
      sqlSink,
    ],
    [
      'a helper method, two hops',
      ['String bar = wrap(param);'],
      sqlSink,
      [
        'private static String wrap(String v) { return trimmed(v); }',
        'private static String trimmed(String v) { String t = v.trim(); return t; }',
      ],
    ],
    [
      'an inner class helper',
      ['String bar = new Helper().pass(param);'],
      sqlSink,
      ['private class Helper { public String pass(String v) { String copy = v; return copy; } }'],
    ],
    [
      'a condition that folds to the request branch',
      [
        'String bar;',
        'int num = 196;',
        'if ((7 * 18) + num > 200) bar = param;',
        'else bar = "constant";',
      ],
      sqlSink,
    ],
    [
      'a base64 round trip (not a sanitiser)',
      [
        'String bar = new String(java.util.Base64.getDecoder().decode(java.util.Base64.getEncoder().encode(param.getBytes())));',
      ],
      sqlSink,
    ],
  ];
  for (const [label, steps, sink, helpers] of vulnerable) {
    it(`follows request input through ${label}`, () => {
      expectHint('src/Case.java', servlet(steps, sink, helpers), SQL, sinkLine(steps), 'high');
    });
  }

  const safe: [string, string[], string, string[]?][] = [
    [
      'a condition that folds to a constant',
      [
        'String bar;',
        'int num = 86;',
        'if ((7 * 42) - num > 200) bar = "This_should_always_happen";',
        'else bar = param;',
      ],
      sqlSink,
    ],
    [
      'a ternary that folds to a constant',
      ['int num = 86;', 'String bar = (7 * 42) - num > 200 ? "This should always happen" : param;'],
      sqlSink,
    ],
    [
      'a switch whose subject folds to a constant arm',
      [
        'String guess = "ABC";',
        'char target = guess.charAt(1);',
        'String bar;',
        "switch (target) { case 'A': bar = param; break; case 'B': bar = \"bob\"; break; default: bar = param; }",
      ],
      sqlSink,
    ],
    [
      'a map entry under another key',
      [
        'java.util.HashMap<String, Object> map = new java.util.HashMap<String, Object>();',
        'map.put("keyA", "a_Value");',
        'map.put("keyB", param);',
        'String bar = (String) map.get("keyA");',
      ],
      sqlSink,
    ],
    [
      'a list element that is not the request value',
      [
        'java.util.List<String> list = new java.util.ArrayList<String>();',
        'list.add("safe");',
        'list.add(param);',
        'list.add("moresafe");',
        'list.remove(0);',
        'String bar = list.get(1);',
      ],
      sqlSink,
    ],
    [
      'a helper that returns a constant',
      ['String bar = doSomething(request, param);'],
      sqlSink,
      [
        'private static String doSomething(HttpServletRequest request, String param) { String bar = "safe!"; return bar; }',
      ],
    ],
    ['a numeric parse', ['String bar = String.valueOf(Integer.parseInt(param));'], sqlSink],
    [
      'a helper called with a constant through an unknown object',
      ['String g = "barbarians_at_the_gate";', 'String bar = thing.doSomething(g);'],
      sqlSink,
    ],
  ];
  for (const [label, steps, sink, helpers] of safe) {
    it(`does not flag a sink fed through ${label}`, () => {
      expectNoHint('src/Case.java', servlet(steps, sink, helpers), SQL);
    });
  }

  it('reads request input from header enumerations, cookies and parameter maps', () => {
    const sources = [
      [
        'java.util.Enumeration<String> headers = request.getHeaders("X-Name");',
        'String bar = headers.nextElement();',
      ],
      [
        'javax.servlet.http.Cookie[] cookies = request.getCookies();',
        'String bar = "none";',
        'for (javax.servlet.http.Cookie c : cookies) { if (c.getName().equals("n")) { bar = c.getValue(); break; } }',
      ],
      [
        'java.util.Map<String, String[]> map = request.getParameterMap();',
        'String[] values = map.get("v");',
        'String bar = values[0];',
      ],
      ['String q = request.getQueryString();', 'String bar = q.substring(q.indexOf("=") + 1);'],
    ];
    for (const steps of sources) {
      expectHint(
        'src/Case.java',
        servlet(steps, 'request.getSession().putValue("userid", bar);'),
        SESSION,
        sinkLine(steps),
        'low',
      );
    }
  });

  it('reads a request wrapper: its parameter getters are input, its other getters are not', () => {
    const wrapped = (getter: string): string =>
      lines(
        'public class Case extends HttpServlet {',
        '  public void doPost(HttpServletRequest request, HttpServletResponse response) throws Exception {',
        '    helpers.SeparateClassRequest scr = new helpers.SeparateClassRequest(request);',
        `    String param = scr.${getter}("name");`,
        '    java.io.File target = new java.io.File(param);',
        '  }',
        '}',
      );
    expectHint('src/Case.java', wrapped('getTheParameter'), FILE, 5, 'medium');
    expectNoHint('src/Case.java', wrapped('getTheValue'), FILE);
  });

  it('treats an encoder as safe only for its own sink kind', () => {
    const encoded = ['String bar = org.owasp.esapi.ESAPI.encoder().encodeForHTML(param);'];
    expectNoHint(
      'src/Case.java',
      servlet(encoded, 'response.getWriter().println("<p>" + bar + "</p>");'),
      'xss/request-html-response',
    );
    expectHint('src/Case.java', servlet(encoded, sqlSink), SQL, sinkLine(encoded), 'high');
    for (const encoder of [
      'org.apache.commons.lang.StringEscapeUtils.escapeHtml(param)',
      'org.springframework.web.util.HtmlUtils.htmlEscape(param)',
    ]) {
      expectNoHint(
        'src/Case.java',
        servlet([`String bar = ${encoder};`], 'response.getWriter().write(bar);'),
        'xss/request-html-response',
      );
    }
  });

  it('keeps a concatenated query whose value comes from outside the file at the default severity', () => {
    const code = lines(
      'function find(db, name) {',
      '  const sql = "SELECT * FROM users WHERE name = \'" + name + "\'";',
      '  return db.query(sql);',
      '}',
    );
    expectHint('src/db.js', code, SQL, 2, 'medium');
  });

  it('does not flag parameterised queries with constant identifiers', () => {
    expectNoHint(
      'src/Case.java',
      servlet(
        ['String table = "users";'],
        'java.sql.PreparedStatement ps = connection.prepareStatement("SELECT * FROM " + table + " WHERE name = ?");',
      ),
      SQL,
    );
    expectNoHint(
      'app/views.py',
      lines(
        'TABLE = "users"',
        'def get(request, uid):',
        '    cur.execute(f"SELECT * FROM {TABLE} WHERE id = %s", (uid,))',
      ),
      SQL,
    );
  });

  it('follows an Express handler that destructures its request, into a same-file helper', () => {
    const code = lines(
      "import path from 'path';",
      'export function serve() {',
      '  return ({ params }: Request, res: Response) => {',
      '    const file = params.file;',
      '    send(file, res);',
      '  };',
      '}',
      'function send(name: string, res: Response) {',
      "  res.sendFile(path.resolve('public/', name));",
      '}',
    );
    expectHint('routes/files.ts', code, FILE, 9, 'medium');
  });

  it('sees an allow-list check as a sanitiser, in a ternary and in a guard clause', () => {
    expectNoHint(
      'routes/items.js',
      lines(
        "const COLUMNS = ['price', 'name'];",
        "app.get('/items', (req, res) => {",
        "  const sort = COLUMNS.includes(req.query.sort) ? req.query.sort : 'name';",
        '  db.query(`SELECT * FROM items ORDER BY ${sort}`);',
        '});',
      ),
      SQL,
    );
    expectNoHint(
      'routes/items.js',
      lines(
        "app.get('/items', (req, res) => {",
        '  const sort = req.query.sort;',
        "  if (!['price', 'name'].includes(sort)) return res.status(400).end();",
        '  db.query(`SELECT * FROM items ORDER BY ${sort}`);',
        '});',
      ),
      SQL,
    );
    expectHint(
      'routes/items.js',
      lines(
        "app.get('/items', (req, res) => {",
        '  const sort = req.query.sort;',
        "  if (!['price', 'name'].includes(sort)) console.warn('odd sort');",
        '  db.query(`SELECT * FROM items ORDER BY ${sort}`);',
        '});',
      ),
      SQL,
      4,
      'high',
    );
  });

  it('matches a call wrapped over several lines as one statement', () => {
    const code = lines(
      'const { exec } = require("child_process");',
      'app.post("/x", (req, res) => {',
      '  exec(',
      '    "convert " + req.body.file + " out.png",',
      '    () => res.end(),',
      '  );',
      '});',
    );
    expectHint('src/a.js', code, 'cmd-exec/node-exec-interpolation', 3, 'high');
  });

  it('treats command-line arguments and the environment as outside data, not constants', () => {
    const code = lines(
      "const { execSync } = require('child_process');",
      'const [command, term] = process.argv.slice(2);',
      'execSync(`curl -s "http://localhost/search?q=${term}"`);',
    );
    expectHint('examples/client.js', code, 'cmd-exec/node-exec-interpolation', 3, 'high');
  });

  it('does not read a hash update as a NoSQL update', () => {
    const code = lines(
      "app.post('/accounts', (req, res) => res.json(hash(req.body.password)));",
      "function hash(password) { return crypto.createHash('md5').update(password).digest('hex'); }",
    );
    expectNoHint('src/accounts.js', code, 'nosql/request-filter');
  });

  it('gives up on a very large file instead of parsing it, and still indexes it', () => {
    const filler = 'const x = 1;\n'.repeat(40_000);
    const hints = indexFile({
      path: 'src/big.js',
      text: `${filler}exec('ls ' + req.query.dir);\n`,
    });
    expect(hints.some((hint) => hint.ruleId === 'cmd-exec/node-exec-interpolation')).toBe(true);
  });
});
