import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';

// Ways around this round's JS/TS and PHP table rows, each with a hint that must still fire (the
// canary is the request value reaching the sink). Names and parameter keys are drawn afresh per run.
const fresh = (): string => `v${randomBytes(4).toString('hex')}`;

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
