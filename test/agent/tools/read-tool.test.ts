import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTool } from '../../../src/agent/tools/read-tool.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { makeToolContext, type TestToolContextOptions } from './make-tool-context.js';

let root: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-read-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(relative: string, content: string | Buffer): void {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), content);
}

async function read(args: Record<string, unknown>, options: TestToolContextOptions = {}) {
  const context = makeToolContext(root, options);
  const result = await readTool.run(args, context);
  return { ...result, context, body: JSON.parse(result.content) as Record<string, unknown> };
}

const numbered = (from: number, to: number, width = 4): string =>
  Array.from({ length: to - from + 1 }, (_, index) => {
    const line = from + index;
    return `${String(line).padStart(width)}\tline ${line}`;
  }).join('\n');

const lines = (count: number): string =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}\n`).join('');

describe('read tool', () => {
  it('returns numbered lines and the total', async () => {
    write('src/a.ts', lines(3));
    const { ok, body } = await read({ path: 'src/a.ts' });
    expect(ok).toBe(true);
    expect(body).toEqual({
      ok: true,
      path: 'src/a.ts',
      content: numbered(1, 3),
      offset: 1,
      lines_shown: 3,
      total_lines: 3,
      has_more: false,
    });
  });

  it('pages with offset and limit, saying where to go on', async () => {
    write('a.txt', lines(10));
    const first = await read({ path: 'a.txt', limit: 4 });
    expect(first.body).toMatchObject({
      content: numbered(1, 4),
      has_more: true,
      next_offset: 5,
      total_lines: 10,
    });
    const last = await read({ path: 'a.txt', offset: 9, limit: 4 });
    expect(last.body).toMatchObject({ content: numbered(9, 10), has_more: false });
    expect(last.body).not.toHaveProperty('next_offset');
  });

  it('reads 2000 lines by default and stops at a line boundary under the character budget', async () => {
    write('long.txt', lines(2500));
    const { body } = await read({ path: 'long.txt' });
    expect(body).toMatchObject({ lines_shown: 2000, has_more: true, next_offset: 2001 });
    write('wide.txt', `${'w'.repeat(1500)}\n`.repeat(200));
    const wide = await read({ path: 'wide.txt' });
    expect(wide.body.has_more).toBe(true);
    const shown = wide.body.lines_shown as number;
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(200);
    expect(wide.body.next_offset).toBe(shown + 1);
    expect(wide.content).not.toContain('characters cut]');
  });

  it('handles CRLF, a BOM, an empty file and a last line without a newline', async () => {
    write('crlf.txt', '\uFEFFone\r\ntwo\r\nthree');
    expect((await read({ path: 'crlf.txt' })).body).toMatchObject({
      content: '   1\tone\n   2\ttwo\n   3\tthree',
      total_lines: 3,
    });
    write('empty.txt', '');
    expect((await read({ path: 'empty.txt' })).body).toMatchObject({
      ok: true,
      content: '',
      total_lines: 0,
      has_more: false,
    });
  });

  it('cuts very long lines with a marker', async () => {
    write('min.js', `${'m'.repeat(2500)}\nshort\n`);
    const { body } = await read({ path: 'min.js' });
    expect(body.content).toContain(`${'m'.repeat(2000)}… [line cut: 500 more characters]`);
    expect(body.content).not.toContain('m'.repeat(2001));
    expect(body).toMatchObject({ lines_cut: 1, total_lines: 2 });
  });

  it('refuses binary, invalid UTF-8, folders, missing files and files over 2 MiB', async () => {
    write('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    write('dir/x.txt', 'x');
    write('big.txt', 'a'.repeat(2 * 1024 * 1024 + 1));
    write('exact.txt', `${'a'.repeat(2 * 1024 * 1024 - 1)}\n`);
    expect((await read({ path: 'image.png' })).body.error).toMatch(/NUL bytes \(a binary file\)/);
    expect((await read({ path: 'latin1.txt' })).body.error).toMatch(/not valid UTF-8/);
    expect((await read({ path: 'dir' })).body.error).toMatch(/is a folder.*use list/);
    expect((await read({ path: 'nope.txt' })).body.error).toMatch(/nope\.txt does not exist/);
    expect((await read({ path: 'big.txt' })).body.error).toMatch(/over the 2 MiB cap/);
    expect((await read({ path: 'exact.txt' })).ok).toBe(true);
  });

  it('refuses an offset past the end and invalid arguments', async () => {
    write('a.txt', lines(3));
    expect((await read({ path: 'a.txt', offset: 4 })).body.error).toMatch(
      /offset 4 is past the end of a\.txt, which has 3 lines/,
    );
    expect((await read({ path: 'a.txt', offset: 0 })).body.error).toMatch(
      /invalid arguments: offset/,
    );
    expect((await read({})).body.error).toMatch(/invalid arguments: path/);
  });

  it('follows a link inside the workspace and refuses one leading outside', async () => {
    write('real.txt', 'inside\n');
    symlinkSync('real.txt', path.join(root, 'alias.txt'));
    expect((await read({ path: 'alias.txt' })).body).toMatchObject({
      path: 'real.txt',
      content: '   1\tinside',
    });
    symlinkSync('/etc/hostname', path.join(root, 'out.txt'));
    expect((await read({ path: 'out.txt' })).body.error).toContain('[symlink-escape]');
  });

  it('denies a secret-bearing file when nobody can approve it, even through a link', async () => {
    write('.env', 'API_TOKEN=hunter2-hunter2\n');
    symlinkSync('.env', path.join(root, 'config.txt'));
    for (const requested of ['.env', 'config.txt']) {
      const { ok, body, denied, context } = await read({ path: requested });
      expect(ok).toBe(false);
      expect(denied?.rule).toBe('secret-bearing-file');
      expect(body.error).toMatch(/secret-bearing file.*non-interactive/);
      expect(JSON.stringify(body)).not.toContain('hunter2');
      expect(context.approvals[0]?.action).toEqual({ kind: 'read', tool: 'read', path: '.env' });
    }
  });

  it('reads a secret-bearing file the user approved, still redacted', async () => {
    const key = createSecretFactory(7).awsAccessKeyId();
    write('.env', `AWS_ACCESS_KEY_ID=${key}\n`);
    const { ok, content } = await read({ path: '.env' }, { isInteractive: true, answer: true });
    expect(ok).toBe(true);
    expect(content).toContain('AWS_ACCESS_KEY_ID=');
    expect(content).not.toContain(key);
  });

  it('redacts a secret planted in an ordinary source file', async () => {
    const key = createSecretFactory(11).awsAccessKeyId();
    write('src/client.ts', `const id = '${key}';\nexport default id;\n`);
    const { ok, content, body } = await read({ path: 'src/client.ts' });
    expect(ok).toBe(true);
    expect(content).not.toContain(key);
    expect(body.content).toContain('export default id;');
  });
});
