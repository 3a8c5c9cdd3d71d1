import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { fresh } from './attack-helpers.js';

// Ways around this round's JS/TS and PHP table rows, each with a hint that must still fire (the
// canary is the request value reaching the sink). Names and parameter keys are drawn afresh per run.

function linesOf(path: string, text: string, category: string): number[] {
  return indexFile({ path, text })
    .filter((hint) => hint.category === category)
    .map((hint) => hint.line);
}

const express = (...body: string[]): string =>
  ["app.post('/attack', (req, res) => {", ...body.map((line) => `  ${line}`), '});'].join('\n');

const php = (...body: string[]): string => ['<?php', ...body].join('\n');

describe('attacks on the JS/TS knowledge rows', () => {
  it('a Koa body that opens with an empty literal can still start with <', () => {
    const name = fresh();
    const text = [
      'router.get("/attack", async (ctx) => {',
      `  const ${name} = ctx.query.${fresh()};`,
      `  ctx.body = '' + ${name};`,
      '});',
    ].join('\n');
    expect(linesOf('src/koa.js', text, 'xss')).toEqual([3]);
  });

  it('a template compiled from the request is the page, whatever the engine escapes', () => {
    const template = fresh();
    const text = [
      "const Handlebars = require('handlebars');",
      express(
        `const ${template} = Handlebars.compile(req.body.${fresh()});`,
        `res.send(${template}({}));`,
      ),
    ].join('\n');
    expect(linesOf('src/app.js', text, 'xss')).toEqual([4]);
  });

  it('a plain-text type set in one handler does not clear the next handler five lines on', () => {
    const text = [
      "app.get('/a', (req, res) => {",
      "  res.type('text/plain');",
      "  res.send('ok');",
      '});',
      '',
      "app.get('/b', (req, res) => {",
      `  res.send(req.query.${fresh()});`,
      '});',
    ].join('\n');
    expect(linesOf('src/app.js', text, 'xss')).toEqual([7]);
  });

  it('an ldapjs filter object built from a filter string is not a filter object', () => {
    const filter = fresh();
    const text = [
      "const ldap = require('ldapjs');",
      express(
        `const ${filter} = ldap.parseFilter('(uid=' + req.query.${fresh()} + ')');`,
        `client.search('ou=people', { filter: ${filter} }, done);`,
      ),
    ].join('\n');
    expect(linesOf('src/app.js', text, 'ldap-injection')).toContain(3);
  });

  it('a module path the request names is a program fork starts', () => {
    const text = [
      "const cp = require('child_process');",
      express(`cp.fork(\`./jobs/\${req.params.${fresh()}}.js\`);`),
    ].join('\n');
    expect(linesOf('src/app.js', text, 'command-execution')).toEqual([3]);
  });
});

describe('attacks on the PHP knowledge rows', () => {
  it('a loose prefix test (== 0) does not confine a path: strpos answers false, and false == 0', () => {
    const path = fresh();
    const text = php(
      `$${path} = $_GET['${fresh()}'];`,
      `if (strpos($${path}, '/srv/files/') != 0) { exit; }`,
      `readfile($${path});`,
    );
    expect(linesOf('public/attack.php', text, 'path-traversal')).toEqual([4]);
  });

  it('a loose `..` test (!= false) lets `..` at offset 0 through', () => {
    const name = fresh();
    const text = php(
      `$${name} = $_GET['${fresh()}'];`,
      `if (strpos($${name}, '..') != false) { exit; }`,
      `readfile('/srv/files/' . $${name});`,
    );
    expect(linesOf('public/attack.php', text, 'path-traversal')).toEqual([4]);
  });

  it('a prefix test joined with another condition by && proves nothing when it fails', () => {
    const path = fresh();
    const text = php(
      `$${path} = realpath($_GET['${fresh()}']);`,
      `if (strpos($${path}, '/srv/files/') !== 0 && $debug) { exit; }`,
      `readfile($${path});`,
    );
    expect(linesOf('public/attack.php', text, 'path-traversal')).toEqual([4]);
  });

  it('a JSON header in another script does not make this echo JSON', () => {
    const text = php(`echo '<p>' . $_GET['${fresh()}'] . '</p>';`);
    expect(linesOf('public/attack.php', text, 'xss').length).toBeGreaterThan(0);
  });

  it('a Laravel route that returns a request string is a page, the JSON route beside it is not', () => {
    const key = fresh();
    const text = php(
      'use Illuminate\\Http\\Request;',
      'use Illuminate\\Support\\Facades\\Route;',
      "Route::get('/a', function (Request $request) {",
      `    return response()->json(['k' => $request->input('${key}')]);`,
      '});',
      "Route::get('/b', function (Request $request) {",
      `    return $request->${key};`,
      '});',
    );
    expect(linesOf('routes/web.php', text, 'xss')).toEqual([8]);
  });

  it('a session key the request names through a nested read is still the request’s', () => {
    const text = php(`$_SESSION[$_POST['${fresh()}']['${fresh()}']] = 1;`);
    expect(linesOf('public/attack.php', text, 'trust-boundary')).toEqual([2]);
  });
});

// The JS/TS and PHP gap rows of issue 30.
const childProcessRoute = (...body: string[]): string =>
  [
    "const { spawn, execFile } = require('child_process');",
    "app.post('/attack', (req, res) => {",
    ...body.map((line) => `  ${line}`),
    '});',
  ].join('\n');

describe('attacks on a shell reached through an argument list in a variable', () => {
  it('a shell flag the request chooses is read as the script', () => {
    const args = fresh();
    const text = childProcessRoute(
      `const ${args} = [req.body.${fresh()}, 'uptime'];`,
      `spawn('sh', ${args});`,
    );
    expect(linesOf('src/app.js', text, 'command-execution')).toEqual([4]);
  });

  it('a script pushed onto the list after it is declared is still the script', () => {
    const args = fresh();
    const text = childProcessRoute(
      `const ${args} = ['-c'];`,
      `${args}.push('ls ' + req.query.${fresh()});`,
      `spawn('/bin/bash', ${args}, { cwd: '/tmp' });`,
    );
    expect(linesOf('src/app.js', text, 'command-execution')).toEqual([5]);
  });

  it('a list swapped in a branch joins both lists', () => {
    const args = fresh();
    const text = childProcessRoute(
      `let ${args} = ['-c', 'uptime'];`,
      `if (req.query.debug) ${args} = ['-c', 'echo ' + req.query.${fresh()}];`,
      `execFile('zsh', ${args}, { shell: false }, (err, out) => res.send(out));`,
    );
    expect(linesOf('src/app.js', text, 'command-execution')).toEqual([5]);
  });

  it('a callback or options argument does not hide the list it follows', () => {
    const args = fresh();
    const options = fresh();
    const text = childProcessRoute(
      `const ${options} = { timeout: 1000 };`,
      `const ${args} = ['-c', \`cat \${req.params.${fresh()}}\`];`,
      `execFile('sh', ${args}, ${options}, function (err, out) { res.send(out); });`,
    );
    expect(linesOf('src/app.js', text, 'command-execution')).toEqual([5]);
  });
});

describe("attacks on lodash's weak random rows", () => {
  it('a file of unclosed import braces is read in linear work and the draw is still found', () => {
    const token = fresh();
    const text = [
      `import { ${'random, '.repeat(150_000)}`,
      "import { sampleSize } from 'lodash';",
      `const ${token}Token = sampleSize(ALPHABET, 32).join('');`,
    ].join('\n');
    expect(linesOf('src/app.js', text, 'weak-crypto')).toEqual([3]);
  }, 120_000);

  it('the call named in a string or comment is not a draw, the real one is', () => {
    const text = [
      "const _ = require('lodash');",
      `const help = '_.random(1, 9) makes a token ${fresh()}'; // _.sample(tokens)`,
      `const ${fresh()}Token = _.random(1e9, 9e9);`,
    ].join('\n');
    expect(linesOf('src/app.js', text, 'weak-crypto')).toEqual([3]);
  });

  it('a function of the file that shares a lodash name is not lodash', () => {
    const text = [
      "const { map } = require('lodash');",
      'function sample(list) { return list[0]; }',
      `const ${fresh()}Token = sample(tokens);`,
    ].join('\n');
    expect(linesOf('src/app.js', text, 'weak-crypto')).toEqual([]);
  });
});

describe('attacks on Laravel route parameters', () => {
  const route = (...lines: string[]): string =>
    ['<?php', 'use Illuminate\\Support\\Facades\\Route;', '', ...lines].join('\n');

  it('a use () list does not take the place of the closure parameters', () => {
    const name = `$${fresh()}`;
    const text = route(
      `Route::get('/a/{x}', function (${name}) use ($clean) {`,
      `    return '<p>' . $clean . ${name} . '</p>';`,
      '});',
    );
    expect(linesOf('routes/web.php', text, 'xss')).toEqual([5]);
  });

  it('a dependency listed before the placeholder does not hide it', () => {
    const name = `$${fresh()}`;
    const text = route(
      `Route::match(['get', 'post'], '/a/{x}', function (Request $request, Logger $log, ?string ${name} = null) {`,
      `    return '<p>' . ${name} . '</p>';`,
      '});',
    );
    expect(linesOf('routes/web.php', text, 'xss')).toEqual([5]);
  });

  // A controller whose show() returns its parameter in a page, after the given route lines.
  const docsController = (...routes: string[]): string => {
    const name = `$${fresh()}`;
    return route(
      ...routes,
      'class DocsController extends Controller',
      '{',
      `    public function show(${name})`,
      '    {',
      `        return '<p>' . ${name} . '</p>';`,
      '    }',
      '}',
    );
  };

  it('a route named in a string or comment does not make a method a route target', () => {
    const text = docsController(
      `// Route::get('/a/{x}', [DocsController::class, 'show']);`,
      `$help = "Route::get('/b/{x}', [DocsController::class, 'show'])";`,
    );
    expect(linesOf('app/Http/Controllers/DocsController.php', text, 'xss')).toEqual([]);
  });

  it('control: the same method named by a route in code is a route target', () => {
    const text = docsController("Route::get('/a/{x}', [DocsController::class, 'show']);");
    expect(linesOf('app/Http/Controllers/DocsController.php', text, 'xss')).toEqual([9]);
  });

  it('the method of another class with the routed name is not the route target', () => {
    const text = route(
      "Route::get('/a/{x}', [DocsController::class, 'show']);",
      'class DocsController extends Controller',
      '{',
      `    public function show($${fresh()})`,
      '    {',
      "        return view('docs');",
      '    }',
      '}',
      'class Renderer',
      '{',
      '    public function show($html)',
      '    {',
      '        return "<div>$html</div>";',
      '    }',
      '}',
    );
    expect(linesOf('app/Http/Controllers/DocsController.php', text, 'xss')).toEqual([]);
  });

  it('a file of route calls without a semicolon is read in linear work and the real route still found', () => {
    const name = `$${fresh()}`;
    const text = route(
      // Just under the size the data flow reads (60,000 characters).
      "Route::get('/x', [A::class]) ".repeat(2_000),
      ';',
      `Route::get('/a/{x}', function (${name}) {`,
      `    return "<p>{${name}}</p>";`,
      '});',
    );
    expect(linesOf('routes/web.php', text, 'xss')).toEqual([7]);
  }, 120_000);
});

describe('attacks on php://input read by readfile', () => {
  it('a readfile of the body in a string or comment is not a read, the real one is', () => {
    const text = [
      '<?php',
      `// readfile('php://input'); ${fresh()}`,
      `$doc = "readfile('php://input')";`,
      'echo $doc;',
      "readfile ( 'php://input' );",
    ].join('\n');
    expect(linesOf('public/echo.php', text, 'xss')).toEqual([5]);
  });

  it('an HTML Content-Type spelt to look like JSON does not clear the page', () => {
    const text = [
      '<?php',
      `header('Content-Type: text/html; profile=application/json; x=${fresh()}');`,
      'readfile("php://input");',
    ].join('\n');
    expect(linesOf('public/echo.php', text, 'xss')).toEqual([3]);
  });
});

describe("attacks on Laravel's e() and Blade's raw echo", () => {
  it('a JS function named e is not an HTML escaper', () => {
    const text = [
      'const e = (s) => s.trim();',
      "app.get('/a', (req, res) => {",
      `  res.send('<p>' + e(req.query.${fresh()}) + '</p>');`,
      '});',
    ].join('\n');
    expect(linesOf('src/app.js', text, 'xss')).toEqual([3]);
  });

  it('a PHP method or static e() is not the helper', () => {
    const name = `$${fresh()}`;
    const text = [
      '<?php',
      'use Illuminate\\Support\\Facades\\Route;',
      `Route::get('/a/{x}', function (${name}) {`,
      `    return '<p>' . Str::e(${name}) . $this->e(${name}) . '</p>';`,
      '});',
    ].join('\n');
    expect(linesOf('routes/web.php', text, 'xss')).toEqual([4]);
  });

  it('a raw echo that escapes only part of its value, or sits beside an escaped one, is raw', () => {
    const field = fresh();
    const text = [
      `<p>{!! e($post->${field}) !!} {!! $post->${field} !!}</p>`,
      `<p>{!! e($post->${field}) . foo($post->${field}) !!}</p>`,
      `<p>{!! e($post->${field}) !!}{!! nl2br($post->${field}) !!}</p>`,
    ].join('\n');
    expect(linesOf('resources/views/post.blade.php', text, 'xss')).toEqual([1, 2, 3]);
  });
});
