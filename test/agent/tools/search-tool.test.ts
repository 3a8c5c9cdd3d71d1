import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { searchTool } from '../../../src/agent/tools/search-tool.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { makeToolContext } from './make-tool-context.js';

let sandbox: string;
let root: string;

beforeEach(() => {
  sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-search-')));
  root = path.join(sandbox, 'ws');
  mkdirSync(root);
});
afterEach(() => rmSync(sandbox, { recursive: true, force: true }));

function write(relative: string, content: string | Buffer): void {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), content);
}

async function search(args: Record<string, unknown>) {
  const result = await searchTool.run(args, makeToolContext(root));
  return { ...result, body: JSON.parse(result.content) as Record<string, unknown> };
}

describe('search tool', () => {
  it('finds regex matches as {path, line, text}, in path order', async () => {
    write('src/b.ts', 'const b = 1;\nfunction beta() {}\n');
    write('src/a.ts', 'function alpha() {}\nconst a = 2;\n');
    write('README.md', 'no functions here\n');
    const { ok, body } = await search({ pattern: 'function \\w+\\(' });
    expect(ok).toBe(true);
    expect(body).toMatchObject({
      matches: [
        { path: 'src/a.ts', line: 1, text: 'function alpha() {}' },
        { path: 'src/b.ts', line: 2, text: 'function beta() {}' },
      ],
      count: 2,
      truncated: false,
      files_searched: 3,
      mode: 'regex',
    });
  });

  it('searches literally on request, and falls back to literal for an invalid regex', async () => {
    write('a.ts', 'call(foo\nfoo.bar\nfooXbar\n');
    const literal = await search({ pattern: 'foo.bar', mode: 'literal' });
    expect(literal.body.matches).toEqual([{ path: 'a.ts', line: 2, text: 'foo.bar' }]);
    const regex = await search({ pattern: 'foo.bar' });
    expect((regex.body.matches as unknown[]).length).toBe(2);
    const fallback = await search({ pattern: 'call(foo' });
    expect(fallback.body).toMatchObject({
      matches: [{ path: 'a.ts', line: 1, text: 'call(foo' }],
      mode: 'literal',
    });
    expect(fallback.body.note).toMatch(/not a valid regular expression.*searched for literally/);
    const strict = await search({ pattern: 'call(foo', mode: 'regex' });
    expect(strict.ok).toBe(false);
    expect(strict.body.error).toMatch(/not a valid regular expression/);
  });

  it('honours root and nested .gitignore files and never searches .git', async () => {
    write('.gitignore', 'dist/\n');
    write('dist/out.js', 'needle\n');
    write('src/.gitignore', '*.gen.ts\n');
    write('src/x.gen.ts', 'needle\n');
    write('src/x.ts', 'needle\n');
    write('.git/config', 'needle\n');
    const { body } = await search({ pattern: 'needle' });
    expect(body.matches).toEqual([{ path: 'src/x.ts', line: 1, text: 'needle' }]);
  });

  it('filters by a gitignore-style glob and searches a subfolder or a single file', async () => {
    write('src/a.ts', 'needle\n');
    write('src/a.md', 'needle\n');
    write('test/a.test.ts', 'needle\n');
    write('src/deep/b.test.ts', 'needle\n');
    const paths = async (args: Record<string, unknown>) =>
      ((await search({ pattern: 'needle', ...args })).body.matches as { path: string }[]).map(
        (match) => match.path,
      );
    expect(await paths({ glob: '*.ts' })).toEqual([
      'src/a.ts',
      'src/deep/b.test.ts',
      'test/a.test.ts',
    ]);
    expect(await paths({ glob: 'src/**/*.test.ts' })).toEqual(['src/deep/b.test.ts']);
    expect(await paths({ path: 'src', glob: '*.md' })).toEqual(['src/a.md']);
    expect(await paths({ path: 'test/a.test.ts' })).toEqual(['test/a.test.ts']);
  });

  it('stops at the limit and says so', async () => {
    write('a.txt', 'hit\n'.repeat(5));
    write('b.txt', 'hit\n'.repeat(5));
    const { body } = await search({ pattern: 'hit', limit: 7 });
    expect(body).toMatchObject({ count: 7, truncated: true });
    expect((await search({ pattern: 'hit', limit: 10 })).body).toMatchObject({
      count: 10,
      truncated: false,
    });
    expect((await search({ pattern: 'hit', limit: 10_001 })).body.error).toMatch(/limit/);
  });

  it('skips binary, oversized and secret-bearing files, and links, and reports why', async () => {
    write('bin.dat', Buffer.from('needle\0needle'));
    write('huge.txt', `needle\n${'a'.repeat(2 * 1024 * 1024)}`);
    write('.env', 'NEEDLE_TOKEN=needle\n');
    write('certs/server.pem', 'needle\n');
    write('ok.txt', 'needle\n');
    mkdirSync(path.join(sandbox, 'outside'));
    writeFileSync(path.join(sandbox, 'outside', 'canary.txt'), 'needle canary\n');
    symlinkSync(path.join(sandbox, 'outside'), path.join(root, 'linked-dir'));
    symlinkSync('ok.txt', path.join(root, 'linked-file.txt'));
    const { body } = await search({ pattern: 'needle' });
    expect(body.matches).toEqual([{ path: 'ok.txt', line: 1, text: 'needle' }]);
    expect(body.skipped).toMatchObject({
      binary: 1,
      too_large: 1,
      links: 2,
      secret_bearing: 2,
      secret_bearing_files: ['.env', 'certs/server.pem'],
    });
    expect((body.skipped as Record<string, string>).secret_note).toMatch(/read.*approval/);
    expect(JSON.stringify(body)).not.toContain('canary');
  });

  it('caps shown lines at 1,000 characters, around the match', async () => {
    write('min.js', `${'x'.repeat(5000)}NEEDLE${'y'.repeat(3000)}\n`);
    const { body } = await search({ pattern: 'NEEDLE' });
    const [match] = body.matches as { text: string }[];
    expect(match?.text.length).toBeLessThanOrEqual(1000);
    expect(match?.text).toContain('NEEDLE');
    expect(match?.text.startsWith('…')).toBe(true);
  });

  it('redacts secrets in matching lines', async () => {
    const key = createSecretFactory(3).awsAccessKeyId();
    write('src/aws.ts', `export const id = '${key}'; // needle\n`);
    const { ok, content } = await search({ pattern: 'needle' });
    expect(ok).toBe(true);
    expect(content).toContain('src/aws.ts');
    expect(content).not.toContain(key);
  });

  it('stops a catastrophically backtracking regex instead of hanging', async () => {
    write('evil.txt', `${'a'.repeat(40)}!\n`);
    const context = makeToolContext(root);
    // A clock that jumps past the budget after the first check makes the deadline immediate.
    let calls = 0;
    context.now = () => (calls++ === 0 ? 0 : 19_950);
    const result = await searchTool.run({ pattern: '^(a+)+$' }, context);
    const body = JSON.parse(result.content) as Record<string, unknown>;
    expect(body.stopped_early).toMatch(/backtrack/);
  });

  it('refuses a missing path, paths outside and empty patterns', async () => {
    expect((await search({ pattern: 'x', path: 'missing' })).body.error).toMatch(/does not exist/);
    expect((await search({ pattern: 'x', path: '../' })).body.error).toContain(
      '[outside-workspace]',
    );
    expect((await search({ pattern: '' })).body.error).toMatch(/invalid arguments: pattern/);
  });
});
