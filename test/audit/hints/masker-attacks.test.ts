import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { lines } from './hint-cases.js';

// Second-round attacks: text where the line's own reading and the masker of strings and comments
// were both wrong at the same place, so a live call vanished. Each case's call runs in its language.
const found = (path: string, text: string, line: number, rule: string): string | undefined =>
  indexFile({ path, text }).find((hint) => hint.line === line && hint.ruleId === rule)?.severity;

describe('calls a masker and a line both misread', () => {
  it('Python: comments that look like #{, strings after assert or raise, and f-string format specs', () => {
    const view = (body: string[]): string =>
      lines('import os', 'from flask import request', '', 'def run():', ...body, '    return "ok"');
    const cases: [string[], number, string][] = [
      [
        ["    #{''' see below", '    eval(request.GET["x"])', "    #{''' see above"],
        6,
        'dynamic-code/python-exec-eval',
      ],
      [
        ["    assert\"'''\"", '    eval(request.GET["x"])', "    assert\"'''\""],
        6,
        'dynamic-code/python-exec-eval',
      ],
      [
        ["    q = 1if\"'''\"else 0", '    eval(request.GET["x"])', "    q = 1if\"'''\"else 0"],
        6,
        'dynamic-code/python-exec-eval',
      ],
      [
        [
          '    n = 255',
          "    s = f\"{n:#x}\" + '''",
          "    '''",
          '    eval(request.GET["x"])',
          "    t = '''",
          "    '''",
        ],
        8,
        'dynamic-code/python-exec-eval',
      ],
      [['    eval(f"{0:#x}" and request.GET["x"])'], 5, 'dynamic-code/python-exec-eval'],
      [['    os.system(f"{0:\'<1}" and request.args["c"])'], 5, 'cmd-exec/python-os-system'],
      [['    p = rf"C:\\{eval(request.GET[\'x\'])}"'], 5, 'dynamic-code/python-exec-eval'],
    ];
    for (const [body, line, rule] of cases) {
      expect(found('app/views.py', view(body), line, rule), body.join(' | ')).toMatch(
        /^(?:high|medium)$/,
      );
    }
  });

  it('Ruby: a regex holding a quote, and a heredoc holding an apostrophe', () => {
    const cases: [string[], string][] = [
      [[], 'q = /"/; system(params[:cmd])'],
      [['  LITERAL = /^\'([^\']*)\'|^"([^"]*)"/u'], 'n = $".size; system(params[:cmd])'],
      [
        ['  HELP = <<~TXT', "    Wrap a name in ' to quote it.", '  TXT'],
        'n = $".size; system(params[:cmd])',
      ],
    ];
    for (const [before, call] of cases) {
      const text = lines(
        'class RunController < ApplicationController',
        ...before,
        '  def run',
        `    ${call}`,
        '  end',
        'end',
      );
      const line = before.length + 3;
      expect(
        found(
          'app/controllers/run_controller.rb',
          text,
          line,
          'cmd-exec/ruby-system-interpolation',
        ),
        text,
      ).toBeDefined();
    }
  });

  // Attack: files built to make per-hit work scale with the file (a hit scanning back for `/*`, a
  // heredoc copying the rest of the file). Each is indexed whole and its last call is still found.
  it('hostile files of many calls, heredocs or comment openers are read whole', () => {
    const calls = `app.post('/r', (req, res) => {\n${'  eval(req.body.x);\n'.repeat(20_000)}});\n`;
    expect(indexFile({ path: 'routes/r.js', text: calls }).length).toBeGreaterThan(0);
    const heredocs = `<?php\n${'$a = <<<EOT\nx\nEOT;\n'.repeat(20_000)}system($_GET["c"]);\n`;
    expect(found('web/r.php', heredocs, 60_002, 'cmd-exec/php-shell-function')).toBeDefined();
    const openers = `app.post('/r', (req, res) => {\n${'  a = 1; /* x\n  */ eval(req.body.x);\n'.repeat(10_000)}});\n`;
    expect(found('routes/r.js', openers, 3, 'dynamic-code/js-eval')).toBeDefined();
  });

  it('PHP heredocs and Java text blocks', () => {
    const php = lines(
      '<?php',
      '$help = <<<TXT',
      "Wrap a name in ' to quote it.",
      'TXT;',
      'function handler() {',
      '    $a = 1; /* " */ system($_GET["c"]);',
      '}',
      '$note = <<<TXT',
      "Close it with ' too.",
      'TXT;',
    );
    expect(found('web/run.php', php, 6, 'cmd-exec/php-shell-function')).toMatch(
      /^(?:high|medium)$/,
    );
    const java = lines(
      'public class Run extends HttpServlet {',
      '    static final String TPL = """',
      '        Hello ${name',
      '        """;',
      '    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {',
      '        int n = 1',
      '            * Runtime.getRuntime().exec(request.getParameter("c")).waitFor();',
      '    }',
      '    static final String END = """',
      '        }',
      '        """;',
      '}',
    );
    expect(found('src/Run.java', java, 7, 'cmd-exec/java-runtime-exec')).toMatch(
      /^(?:high|medium)$/,
    );
  });

  it('a carriage return alone or U+2028 ends a comment for the language, and is flagged', () => {
    for (const [path, text] of [
      [
        'routes/run.js',
        "app.post('/run', (req, res) => {\n  // note\r  eval(req.body.code);\n});\n",
      ],
      [
        'routes/run.js',
        "app.post('/run', (req, res) => {\n  // note\u2028  eval(req.body.code);\n});\n",
      ],
      ['app/views.py', 'def run(request):\n    # note\r    eval(request.GET["x"])\n'],
      ['web/run.php', '<?php\nfunction h() {\n    // note\r    system($_GET["c"]);\n}\n'],
    ] as const) {
      expect(
        found(path, text, 2, 'prompt-injection/hidden-line-break') ??
          found(path, text, 3, 'prompt-injection/hidden-line-break'),
        path,
      ).toBe('high');
    }
    // A file written with carriage returns alone throughout (old Mac line ends) is not flagged line by line.
    const mac = Array.from({ length: 30 }, (_, index) => `var a${index} = ${index};`).join('\r');
    expect(
      indexFile({ path: 'lib/old.js', text: mac }).filter(
        (hint) => hint.ruleId === 'prompt-injection/hidden-line-break',
      ),
    ).toEqual([]);
  });
});
