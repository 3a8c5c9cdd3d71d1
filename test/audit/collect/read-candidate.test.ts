import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkContent } from '../../../src/audit/collect/check-content.js';
import { readCandidate } from '../../../src/audit/collect/read-candidate.js';
import type { CandidateFile } from '../../../src/audit/types.js';
import { MIB, makeTempDir, removeDir } from './tree-helpers.js';

let root = '';
beforeEach(() => {
  root = makeTempDir();
});
afterEach(() => {
  removeDir(root);
});

function candidateFor(
  relPath: string,
  content?: string | Buffer,
): CandidateFile & { absolutePath: string } {
  const absolutePath = path.join(root, relPath);
  if (content !== undefined) {
    mkdirSync(path.dirname(absolutePath), { recursive: true });
    writeFileSync(absolutePath, content);
  }
  return { path: relPath, absolutePath, size: content?.length ?? 1, isTracked: true };
}

async function reasonFor(candidate: CandidateFile, maxFileBytes = MIB): Promise<string> {
  const result = await readCandidate(candidate, maxFileBytes);
  return 'file' in result ? 'read' : `${result.entry.status}(${String(result.entry.reason)})`;
}

describe('readCandidate: text', () => {
  it('returns the text, its byte size and whether git tracks it', async () => {
    const content = 'const café = "ü";\n';
    const result = await readCandidate(candidateFor('src/a.ts', content), MIB);
    expect(result).toEqual({
      file: { path: 'src/a.ts', text: content, size: Buffer.byteLength(content), isTracked: true },
    });
  });

  it('strips a leading UTF-8 BOM from the text only', async () => {
    const result = await readCandidate(candidateFor('bom.ts', '\uFEFFlet a = 1;\n'), MIB);
    expect('file' in result && result.file.text).toBe('let a = 1;\n');
    expect('file' in result && result.file.size).toBe(14);
  });
});

/** Non-ASCII characters as 'x': what UTF-16 without a mark must hold to be told from binary. */
const toAscii = (text: string): string =>
  [...text].map((char) => ((char.codePointAt(0) ?? 0) < 0x80 ? char : 'x')).join('');

describe('readCandidate: Unicode encodings', () => {
  const text = 'const naïve = "日本 🙂";\nexport { naïve };\n';
  const utf32 = (littleEndian: boolean): Buffer => {
    const points = [0xfeff, ...[...text].map((char) => char.codePointAt(0) ?? 0)];
    const bytes = Buffer.alloc(points.length * 4);
    points.forEach((point, at) =>
      littleEndian ? bytes.writeUInt32LE(point, at * 4) : bytes.writeUInt32BE(point, at * 4),
    );
    return bytes;
  };
  const encodings: [string, Buffer][] = [
    ['UTF-8 with BOM', Buffer.from(`\uFEFF${text}`, 'utf8')],
    ['UTF-16 LE with BOM', Buffer.from(`\uFEFF${text}`, 'utf16le')],
    ['UTF-16 BE with BOM', Buffer.from(`\uFEFF${text}`, 'utf16le').swap16()],
    ['UTF-32 LE with BOM', utf32(true)],
    ['UTF-32 BE with BOM', utf32(false)],
    ['UTF-16 LE without a BOM', Buffer.from(toAscii(text), 'utf16le')],
  ];
  for (const [name, bytes] of encodings) {
    it(`${name} is read as its text, the mark dropped`, async () => {
      const result = await readCandidate(candidateFor('wide.ts', bytes), MIB);
      const expected = name.includes('without') ? toAscii(text) : text;
      expect('file' in result && result.file.text).toBe(expected);
      expect('file' in result && result.file.size).toBe(bytes.length);
    });
  }

  it('numbers that look like UTF-16 without a mark are not text', async () => {
    // Little-endian 16-bit values under 256 with no zero among them: NUL in every other byte.
    const numbers = Buffer.alloc(64);
    for (let at = 0; at < 32; at++) numbers.writeUInt16LE(1 + (at % 30), at * 2);
    expect(await reasonFor(candidateFor('table.bin', numbers))).toBe('skipped(binary)');
    expect(await reasonFor(candidateFor('table.data', numbers))).toBe('skipped(unexpected-binary)');
  });

  it('binary content in UTF-16 is still binary', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(64)]);
    expect(await reasonFor(candidateFor('wide.txt', bytes))).toBe('skipped(unexpected-binary)');
  });
});

describe('checkContent: binary content is read for secrets the way strings reads it', () => {
  const key = `ghp_${'A1b2C3d4'.repeat(4)}Zz9y`;
  const utf32 = (text: string, littleEndian: boolean): Buffer => {
    const bytes = Buffer.alloc(text.length * 4);
    [...text].forEach((char, at) =>
      littleEndian
        ? bytes.writeUInt32LE(char.charCodeAt(0), at * 4)
        : bytes.writeUInt32BE(char.charCodeAt(0), at * 4),
    );
    return bytes;
  };
  const wide: [string, Buffer][] = [
    ['UTF-16 LE', Buffer.from(`key=${key}\n`, 'utf16le')],
    ['UTF-16 BE', Buffer.from(`key=${key}\n`, 'utf16le').swap16()],
    ['UTF-32 LE', utf32(`key=${key}\n`, true)],
    ['UTF-32 BE', utf32(`key=${key}\n`, false)],
  ];
  for (const [name, bytes] of wide) {
    it(`${name} text inside a binary is read joined, line feeds kept`, () => {
      // A PNG header and a control character: no text encoding fits, so this is binary.
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 1]);
      const verdict = checkContent(
        Buffer.concat([png, bytes, Buffer.from([0, 0, 0xff])]),
        'logo.png',
      );
      expect(verdict.reviewSkip?.reason).toBe('binary');
      expect(verdict.text).toContain(`key=${key}\n`);
      // The PNG signature's two line feeds and the text's one: line numbers hold.
      expect(verdict.text.split('\n')).toHaveLength(4);
    });
  }

  it('NUL padding between ASCII strings is a space, never a join', () => {
    const bytes = Buffer.from('\x7fELF\0\0\0\0user\0\0\0\0secret\0\0B\0\0\0C');
    expect(checkContent(bytes, 'app').text).toBe(' ELF    user    secret  B   C');
  });
});

describe('readCandidate: content checks', () => {
  it('binary: a NUL byte in the first 8 KiB; under a name that does not say binary it is unexpected', async () => {
    const bytes = Buffer.concat([
      Buffer.from('export const a = 1;\n'),
      Buffer.from([0, 1, 2, 0xff]),
    ]);
    expect(await reasonFor(candidateFor('sneaky.ts', bytes))).toBe('skipped(unexpected-binary)');
    expect(await reasonFor(candidateFor('no-extension', bytes))).toBe('skipped(unexpected-binary)');
    expect(await reasonFor(candidateFor('logo.PNG', bytes))).toBe('skipped(binary)');
    expect(await reasonFor(candidateFor('sub/.DS_Store', bytes))).toBe('skipped(binary)');
    // The name never decides: a text file called logo.png is text.
    expect(await reasonFor(candidateFor('logo.png', 'const a = 1;\n'))).toBe('read');
    // Past the sniff window a NUL is just a character of valid UTF-8 text.
    const late = `${'abc\n'.repeat(2048)}\0tail\n`;
    expect(await reasonFor(candidateFor('late.txt', late))).toBe('read');
  });

  it('invalid-utf8: bytes that do not decode', async () => {
    const latin1 = Buffer.from('caf\xe9 au lait\n', 'latin1');
    expect(await reasonFor(candidateFor('latin1.txt', latin1))).toBe('skipped(invalid-utf8)');
    const truncated = Buffer.from([0x61, 0xe2, 0x82]);
    expect(await reasonFor(candidateFor('cut.txt', truncated))).toBe('skipped(invalid-utf8)');
  });

  it('generated: a marker within the first five lines', async () => {
    const headers = [
      '// Code generated by protoc-gen-go. DO NOT EDIT.\npackage x\n',
      '/**\n * @generated\n */\nexport {};\n',
      '# This file is auto-generated; do not edit by hand.\nx = 1\n',
      '// <auto-generated>\n//   This code was generated by a tool.\n// </auto-generated>\n',
      '/* DO NOT EDIT: this file was generated by gen.py */\n',
      '// line 1\n// line 2\n// line 3\n// line 4\n// @generated\n',
    ];
    for (const [index, header] of headers.entries()) {
      const result = await readCandidate(candidateFor(`gen${index}.ts`, header), MIB);
      expect({ index, reason: 'entry' in result ? result.entry.reason : 'read' }).toEqual({
        index,
        reason: 'generated',
      });
    }
  });

  it('not generated: a marker past the header, or merely the word', async () => {
    const late = '// 1\n// 2\n// 3\n// 4\n// 5\n// @generated\n';
    expect(await reasonFor(candidateFor('late-marker.ts', late))).toBe('read');
    const past1k = `${'// padding\n'.repeat(1).padEnd(1100, ' ')}\n// @generated\n`;
    expect(await reasonFor(candidateFor('past-1k.ts', past1k))).toBe('read');
    const mention = '// The generated client lives elsewhere.\nexport const a = 1;\n';
    expect(await reasonFor(candidateFor('mention.ts', mention))).toBe('read');
  });

  it('minified: a long average line over 2 KiB, or one huge line in a script', async () => {
    const dense = `${'var a=1;'.repeat(400)}\n${'var b=2;'.repeat(400)}\n`;
    expect(await reasonFor(candidateFor('bundle.js', dense))).toBe('skipped(minified)');
    expect(await reasonFor(candidateFor('data.txt', dense))).toBe('skipped(minified)');
    const oneHugeLine = `${'// ok\n'.repeat(3000)}${'x'.repeat(10_001)}\n`;
    expect(await reasonFor(candidateFor('mixed.js', oneHugeLine))).toBe('skipped(minified)');
    // Outside scripts and styles one long line among many short ones is kept.
    expect(await reasonFor(candidateFor('mixed.py', oneHugeLine))).toBe('read');
    // A short file is never judged minified.
    expect(await reasonFor(candidateFor('short.js', 'x'.repeat(2000)))).toBe('read');
    const normal = 'export const value = compute(1, 2, 3);\n'.repeat(500);
    expect(await reasonFor(candidateFor('normal.js', normal))).toBe('read');
  });
});

describe('readCandidate: the file changed after listing', () => {
  it('missing: removed', async () => {
    const candidate = candidateFor('gone.ts', 'x');
    rmSync(candidate.absolutePath);
    expect(await reasonFor(candidate)).toBe('skipped(missing)');
  });

  it('missing: an ancestor became a file', async () => {
    const candidate = candidateFor('dir/a.ts', 'x');
    rmSync(path.join(root, 'dir'), { recursive: true });
    writeFileSync(path.join(root, 'dir'), 'now a file');
    expect(await reasonFor(candidate)).toBe('skipped(missing)');
  });

  it('hard-link: a second name made since listing is not read through', async () => {
    const outside = makeTempDir();
    try {
      writeFileSync(path.join(outside, 'credentials'), 'outside the workspace');
      const candidate = candidateFor('a.ts', 'x');
      rmSync(candidate.absolutePath);
      linkSync(path.join(outside, 'credentials'), candidate.absolutePath);
      expect(await reasonFor(candidate)).toBe('skipped(hard-link)');
    } finally {
      removeDir(outside);
    }
  });

  it('symlink: a symlink swapped in is not followed', async () => {
    const outside = makeTempDir();
    try {
      writeFileSync(path.join(outside, 'secret.txt'), 'outside the workspace');
      const candidate = candidateFor('a.ts', 'x');
      rmSync(candidate.absolutePath);
      symlinkSync(path.join(outside, 'secret.txt'), candidate.absolutePath);
      expect(await reasonFor(candidate)).toBe('skipped(symlink)');
    } finally {
      removeDir(outside);
    }
  });

  it('not-regular-file: a FIFO swapped in does not block the read', async () => {
    const candidate = candidateFor('pipe.ts', 'x');
    rmSync(candidate.absolutePath);
    execFileSync('mkfifo', [candidate.absolutePath]);
    const result = await readCandidate(candidate, MIB);
    expect(result).toEqual({
      entry: { path: 'pipe.ts', status: 'skipped', reason: 'not-regular-file', detail: 'fifo' },
    });
  });

  it('not-regular-file: a directory swapped in', async () => {
    const candidate = candidateFor('was-file', 'x');
    rmSync(candidate.absolutePath);
    mkdirSync(candidate.absolutePath);
    expect(await reasonFor(candidate)).toBe('skipped(not-regular-file)');
  });

  it('too-large: grown to 2 GB (sparse) is refused from fstat, unread', async () => {
    const candidate = candidateFor('grown.ts', 'small');
    truncateSync(candidate.absolutePath, 2 * 1024 * MIB);
    const result = await readCandidate(candidate, MIB);
    expect(result).toEqual({
      entry: {
        path: 'grown.ts',
        status: 'skipped',
        reason: 'too-large',
        detail: `${2 * 1024 * MIB} bytes, limit ${MIB}`,
      },
    });
  });

  it('empty: truncated to nothing', async () => {
    const candidate = candidateFor('emptied.ts', 'x');
    truncateSync(candidate.absolutePath, 0);
    expect(await reasonFor(candidate)).toBe('skipped(empty)');
  });
});
