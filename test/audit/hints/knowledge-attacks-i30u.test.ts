import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { MaskedText } from '../../../src/audit/hints/flow/masked-text.js';
import { sinkArgumentSpans } from '../../../src/audit/hints/flow/sink-argument.js';
import { fresh, hintLines } from './attack-helpers.js';

// Round 3 of issue 30 for PHP, Java and the engine: each case has a canary that must fire (request
// text reaching the sink) or must not (a callback, a name reduced to its last component, a JSON answer).
// Names and parameter keys are drawn afresh per run.

const express = (...body: string[]): string[] => [
  "const { exec } = require('child_process');",
  "app.get('/attack', (req, res) => {",
  ...body.map((line) => `  ${line}`),
  '});',
];

// The argument texts a `call` sink reads, for code with no strings or comments to mask.
function callArguments(code: string, sink: string): string[] {
  const masked = new MaskedText(code);
  const hit = code.indexOf(sink);
  return sinkArgumentSpans(masked, hit, hit + sink.length, 'call').map((span) =>
    code.slice(span.start, span.end).trim(),
  );
}

describe('a function literal passed to a sink is not its value; one called in place is', () => {
  it('an arrow callback with an expression body ending on `)` is not read', () => {
    const key = fresh();
    expect(
      hintLines(
        'src/app.js',
        express(
          'const dir = "/srv";',
          `exec(\`ls \${dir}\`, (err, out) => log(req.query.${key}));`,
        ),
        'command-execution',
      ),
    ).toEqual([]);
    expect(
      hintLines(
        'src/app.js',
        express('const dir = "/srv";', `exec(\`ls \${dir}\`, err => log(req.query.${key}));`),
        'command-execution',
      ),
    ).toEqual([]);
    expect(callArguments('write(a, (e) => log(e))', 'write(')).toEqual(['a']);
    expect(callArguments('write(a, async e => log(e))', 'write(')).toEqual(['a']);
    expect(callArguments('write(a, function (e) { log(e) })', 'write(')).toEqual(['a']);
  });

  it('a wrapped arrow or function called in place is its value', () => {
    const key = fresh();
    expect(
      hintLines(
        'src/app.js',
        express('const dir = "/srv";', `exec(\`ls \${dir}\`, (() => req.query.${key})());`),
        'command-execution',
      ),
    ).toEqual([4]);
    expect(callArguments('write(a, (() => b)())', 'write(')).toEqual(['a', '(() => b)()']);
    expect(callArguments('write(a, (function () { return b })())', 'write(')).toEqual([
      'a',
      '(function () { return b })()',
    ]);
    expect(callArguments('write(a, function () { return b }())', 'write(')).toEqual([
      'a',
      'function () { return b }()',
    ]);
    expect(callArguments('Find(doc, func() string { return b }())', 'Find(')).toEqual([
      'doc',
      'func() string { return b }()',
    ]);
  });

  it('a long run of arrows and unbalanced brackets is read in bounded work', () => {
    const arrows = Array.from({ length: 2_000 }, (_, at) => `(e${at}) => f(`).join('');
    expect(callArguments(`write(a, ${arrows}`, 'write(')).toEqual(['a']);
    const unbalanced = `write(a, (${'('.repeat(20_000)} => x`;
    expect(callArguments(unbalanced, 'write(').length).toBeGreaterThan(0);
  });
});

const laravel = (...body: string[]): string[] => [
  '<?php',
  'use Illuminate\\Http\\Request;',
  'use Illuminate\\Support\\Facades\\DB;',
  'use Illuminate\\Support\\Facades\\Route;',
  '',
  ...body,
];

describe('Laravel route arrow functions and JSON answers', () => {
  it('an arrow route returning its parameter bare, or appended to a JSON-looking call, is the page', () => {
    const [path, name] = [fresh(), fresh()];
    for (const body of [
      `fn ($${name}) => $${name}`,
      `fn ($${name}) => collect([1])->implode('') . $${name}`,
    ])
      expect(
        hintLines('routes/web.php', laravel(`Route::get('/${path}/{${name}}', ${body});`), 'xss'),
        body,
      ).toEqual([6]);
    expect(
      hintLines(
        'routes/web.php',
        laravel(
          `Route::get('/${path}', function (Request $request) {`,
          `    return DB::select('select 1')[0]->name . $request->input('${name}');`,
          '});',
        ),
        'xss',
      ),
    ).toEqual([7]);
  });

  it('two arrow routes on one line are judged one by one: a view beside a page does not hide it', () => {
    const [path, name] = [fresh(), fresh()];
    const page = `Route::get('/${path}/{${name}}', fn ($${name}) => "<p>$${name}</p>");`;
    const view = `Route::get('/${fresh()}', fn () => view('home'));`;
    expect(hintLines('routes/web.php', laravel(`${view} ${page}`), 'xss')).toEqual([6]);
    expect(hintLines('routes/web.php', laravel(`${page} ${view}`), 'xss')).toEqual([6]);
  });

  it('a cast parameter, a whole query result and a view stay quiet', () => {
    const [path, name] = [fresh(), fresh()];
    for (const body of [
      `fn (int $${name}) => "<b>{$${name}}</b>"`,
      `fn ($${name}) => User::find($${name})`,
      `fn ($${name}) => DB::table('users')->where('name', $${name})->first()`,
      `fn ($${name}) => view('users.show', ['name' => $${name}])`,
      `fn ($${name}) => ['name' => $${name}]`,
    ])
      expect(
        hintLines('routes/web.php', laravel(`Route::get('/${path}/{${name}}', ${body});`), 'xss'),
        body,
      ).toEqual([]);
  });

  it('an arrow outside a route, or written in a string, is no page', () => {
    const name = fresh();
    expect(
      hintLines('app/helpers.php', laravel(`$wrap = fn ($${name}) => "<p>$${name}</p>";`), 'xss'),
    ).toEqual([]);
    expect(
      hintLines('routes/web.php', laravel(`$doc = "Route::get('/a/{x}', fn ($x) => $x);";`), 'xss'),
    ).toEqual([]);
  });

  it('a query result whose column text is returned is not read as JSON', () => {
    const [path, name] = [fresh(), fresh()];
    expect(
      hintLines(
        'routes/web.php',
        laravel(
          `Route::get('/${path}', fn (Request $request) => User::where('a', 1)->value('name') . $request->input('${name}'));`,
        ),
        'xss',
      ),
    ).toEqual([6]);
  });

  it('a long line of arrow routes and unclosed JSON calls is read in bounded work', () => {
    const routes = Array.from(
      { length: 3_000 },
      (_, at) => `Route::get('/r${at}', fn ($a) => collect([$a, DB::select(User::find(`,
    ).join(' ');
    const hints = indexFile({ path: 'routes/web.php', text: laravel(routes).join('\n') });
    expect(Array.isArray(hints)).toBe(true);
  });
});

function servletHints(body: string[]): number[] {
  return hintLines(
    'src/main/java/Attack.java',
    [
      'import java.io.*;',
      'import java.nio.file.*;',
      'class Attack extends HttpServlet {',
      '  void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {',
      ...body.map((line) => `    ${line}`),
      '  }',
      '}',
    ],
    'path-traversal',
  );
}

describe('Java paths cut to their last name component', () => {
  it('a leaf under a fixed folder is safe, `..` included: it names the folder’s parent, no file outside', () => {
    const [key, name] = [fresh(), fresh()];
    expect(
      servletHints([
        `String ${name} = request.getParameter("${key}");`,
        `Files.readAllBytes(Paths.get("/srv/docs").resolve(Paths.get(${name}).getFileName()));`,
        `new FileInputStream(new File("/srv/docs", new File(${name}).getName()));`,
        `new FileInputStream(new File("/srv/docs", new File(request.getParameter("${key}")).getName()));`,
      ]),
    ).toEqual([]);
  });

  it('what keeps more than the leaf stays flagged: getParent, getAbsolutePath, a Part’s own name', () => {
    const [key, name] = [fresh(), fresh()];
    expect(
      servletHints([
        `String ${name} = request.getParameter("${key}");`,
        `new FileInputStream(new File(${name}).getParent());`,
      ]),
    ).toEqual([6]);
    expect(
      servletHints([
        `String ${name} = request.getParameter("${key}");`,
        `new FileInputStream(new File("/srv/docs", ${name}).getAbsolutePath());`,
      ]),
    ).toEqual([6]);
    expect(
      servletHints([
        `String ${name} = request.getParameter("${key}") + ".txt";`,
        `new FileInputStream(new File("/srv/docs/" + Paths.get("x").getFileName() + ${name}));`,
      ]),
    ).toEqual([6]);
    // Part#getName is the form field's name, which the client chose: not a leaf of a path.
    expect(
      servletHints([
        `Part part = request.getPart("${key}");`,
        'new FileInputStream(new File("/srv/uploads", part.getName()));',
      ]),
    ).toEqual([6]);
  });

  it('unbalanced brackets and long runs of constructors after a path call cost bounded work', () => {
    const key = fresh();
    const nested = `new File(${'new File('.repeat(3_000)}request.getParameter("${key}")`;
    expect(Array.isArray(servletHints([`${nested};`]))).toBe(true);
    const open = `Paths.get(${'('.repeat(20_000)}request.getParameter("${key}")).getFileName();`;
    expect(Array.isArray(servletHints([open]))).toBe(true);
  });
});
