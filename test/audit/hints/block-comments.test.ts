import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { lines } from './hint-cases.js';

const ruleIds = (path: string, text: string): string[] =>
  indexFile({ path, text }).map((hint) => `${hint.line}:${hint.ruleId}`);
const severities = (path: string, text: string): string[] =>
  indexFile({ path, text }).map((hint) => `${hint.line}:${hint.ruleId}:${hint.severity}`);

describe('code kept inside block comments', () => {
  it('a fixed query kept as a comment ranks informational, in any brace language', () => {
    const js = lines(
      "app.get('/a', (req, res) => {",
      '  const threshold = req.query.t;',
      '  /*',
      "  // 1. 0';while(true){}'",
      "  return db.c.find({ $where: `this.stocks > '${threshold}'` });",
      '  */',
      '  return db.c.find({ stocks: { $gt: Number(threshold) } });',
      '});',
    );
    expect(severities('routes/a.js', js)).toEqual(['5:nosql/request-filter:info']);
    const php = lines(
      '<?php',
      '/*',
      '$query = "SELECT * FROM users WHERE id = \'" . $_GET[\'id\'] . "\'";',
      'mysqli_query($conn, $query);',
      '*/',
    );
    expect(severities('web/a.php', php).every((hint) => hint.endsWith(':info'))).toBe(true);
  });

  // Attack: a hostile file fakes a comment opener inside strings to hide a live call from the index.
  it('a /* inside a string or a template opens no comment', () => {
    const canary = `x${Math.random().toString(36).slice(2, 8)}`;
    const inStrings = lines(
      "app.post('/run', (req, res) => {",
      `  const a = "/*"; const ${canary} = eval(req.body.code); const b = "*/";`,
      '});',
    );
    expect(ruleIds('routes/run.js', inStrings)).toContain('2:dynamic-code/js-eval');
    const inTemplate = lines(
      "app.post('/run', (req, res) => {",
      '  const banner = `',
      '/*',
      `\`; const ${canary} = eval(req.body.code); const tail = \``,
      '*/',
      '`;',
      '});',
    );
    expect(ruleIds('routes/run.js', inTemplate)).toContain('4:dynamic-code/js-eval');
    const inRegex = lines(
      "app.post('/run', (req, res) => {",
      `  const strip = /\\/*/g; const ${canary} = eval(req.body.code); const again = /\\*\\//g;`,
      '});',
    );
    expect(ruleIds('routes/run.js', inRegex)).toContain('2:dynamic-code/js-eval');
  });

  it('code after a comment closes on the same line is read', () => {
    const text = lines(
      "app.post('/run', (req, res) => {",
      '  /* old */ eval(req.body.code);',
      '});',
    );
    expect(ruleIds('routes/run.js', text)).toContain('2:dynamic-code/js-eval');
  });

  // Attack: a line that starts like a comment line but is code.
  it('a line starting with * that continues an expression is code', () => {
    const text = lines(
      "app.post('/run', (req, res) => {",
      '  const total = 1',
      '    * eval(req.body.factor);',
      '  res.json({ total });',
      '});',
    );
    expect(ruleIds('routes/run.js', text)).toContain('3:dynamic-code/js-eval');
  });

  it('the call after a Python docstring is read', () => {
    const text = lines(
      'def calc(request):',
      '    """Evaluate a formula.',
      '',
      '        Never pass the request to it: eval is not a sandbox.',
      '    """',
      '    return eval(request.GET["formula"])',
    );
    expect(ruleIds('app/views.py', text)).toContain('6:dynamic-code/python-exec-eval');
  });

  // Attack: a regular expression the masker once misread as a division, holding a backtick that
  // then opened a template to the end of the file and hid every later call from the data flow.
  it('a regex after a keyword, or JSX text with a backtick, hides no later call', () => {
    for (const trick of [
      'function f(s) { return /`/.test(s); }',
      'switch (x) { case /`/.source: break; }',
      'export default /`/;',
      'const z = typeof /`/;',
      'function* g() { yield /`/; }',
      'const html = <div>`</div>;',
      'const strip = (s) => { return s.replace(/\\/*/g, ""); };',
    ]) {
      const text = lines(
        "app.post('/run', (req, res) => {",
        `  ${trick}`,
        '  eval(req.body.code);',
        '});',
      );
      expect(ruleIds('routes/run.jsx', text), trick).toContain('3:dynamic-code/js-eval');
    }
  });

  // Attack: PHP's closing tag inside a string does not leave PHP, whatever a masker makes of it.
  it('a "?>" inside a PHP string hides no later call', () => {
    const text = lines('<?php', '$open = "?>";', 'system($_GET["c"]);', '$close = "<?php";');
    expect(ruleIds('web/x.php', text)).toContain('3:cmd-exec/php-shell-function');
  });

  // Attacks found by a reviewer: a string form the masker did not know put a `/*` or a `#` where
  // the language sees none, and the call after it was ranked or read as a comment.
  it('strings that span lines, PHP comments that end at ?>, Ruby literals and Java text blocks hide nothing', () => {
    const cases: [string, string, number, string][] = [
      [
        'web/a.php',
        lines('<?php', '$banner = "', '/*";', 'system($_GET["c"]);', '// */'),
        4,
        'cmd-exec/php-shell-function',
      ],
      [
        'web/b.php',
        lines('<?php', '$banner = "', '# ";  system($_GET["c"]);'),
        3,
        'cmd-exec/php-shell-function',
      ],
      [
        'web/c.php',
        lines('<?php', 'function h() {', '    # old: ?><?php system($_GET["c"]);', '}'),
        3,
        'cmd-exec/php-shell-function',
      ],
      [
        'web/d.php',
        lines('<?php', 'function h() {', '    $a = 1; // ?><?php system($_GET["c"]);', '}'),
        3,
        'cmd-exec/php-shell-function',
      ],
      [
        'app/controllers/run_controller.rb',
        lines('def run', '  q = ?"; system(params[:cmd])', 'end'),
        2,
        'cmd-exec/ruby-system-interpolation',
      ],
      [
        'app/controllers/run_controller.rb',
        lines('def run', '  w = %w[ # ]; system(params[:cmd])', 'end'),
        2,
        'cmd-exec/ruby-system-interpolation',
      ],
      [
        'src/Run.java',
        lines(
          'class Run extends HttpServlet {',
          '  void doGet(HttpServletRequest request) throws Exception {',
          '    String s = """',
          '      x // """; Runtime.getRuntime().exec(request.getParameter("c"));',
          '  }',
          '}',
        ),
        4,
        'cmd-exec/java-runtime-exec',
      ],
      [
        'src/Run.java',
        lines(
          'class Run extends HttpServlet {',
          '  void doGet(HttpServletRequest request) throws Exception {',
          '    String s = """',
          '/*',
          '""";',
          '    Runtime.getRuntime().exec(request.getParameter("c"));',
          '    // */',
          '  }',
          '}',
        ),
        6,
        'cmd-exec/java-runtime-exec',
      ],
      [
        'routes/run.js',
        lines(
          "app.post('/run', (req, res) => {",
          '  const q = {} / `x/{',
          '/*',
          '`;',
          '  eval(req.body.code);',
          '  // */',
          '});',
        ),
        5,
        'dynamic-code/js-eval',
      ],
      [
        'routes/run.js',
        lines(
          "app.post('/run', (req, res) => {",
          '  const strip = /[ //]/g; eval(req.body.code);',
          '});',
        ),
        2,
        'dynamic-code/js-eval',
      ],
    ];
    for (const [path, text, line, rule] of cases) {
      const found = indexFile({ path, text }).find(
        (hint) => hint.line === line && hint.ruleId === rule,
      );
      // A `/*` the masker wrongly reads as a comment (after `{} /`, read as a regex) costs the hint
      // its rank, never its place.
      const ranks = text.includes('{} /') ? /^(?:high|medium|info)$/ : /^(?:high|medium)$/;
      expect(found?.severity, `${path}: ${text}`).toMatch(ranks);
    }
  });

  it('a Java unicode escape that the compiler turns into a line break is flagged', () => {
    const text = lines(
      'class Run {',
      '  void run(String cmd) throws Exception {',
      '    // \\u000a Runtime.getRuntime().exec(cmd);',
      '  }',
      '}',
    );
    expect(ruleIds('src/Run.java', text)).toContain('3:prompt-injection/java-unicode-escape');
    expect(ruleIds('src/Run.java', 'String s = "caf\\u00e9";')).toEqual([]);
    // The JDK's own escapes: a backslash shown in Javadoc, `*` and `/` inside a charset table's string.
    expect(ruleIds('src/DataInput.java', " * {@code '\\u005Cu0001'}")).toEqual([]);
    expect(ruleIds('src/IBM852.java', 'String t = "\\u0028\\u002A\\u002F";')).toEqual([]);
    expect(ruleIds('src/Run.java', "char quote = '\\u0022';")).toEqual([]);
    expect(ruleIds('src/Run.java', '/* x \\u002a/ exec(c); /* */')).toContain(
      '1:prompt-injection/java-unicode-escape',
    );
  });
});
