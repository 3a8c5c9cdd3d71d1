import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanLargeFile, type WindowLimits } from '../../../src/audit/scan/scan-large-file.js';
import type { CandidateFile, Redaction } from '../../../src/audit/types.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { useTempDirs } from '../collect/tree-helpers.js';

/**
 * A file too large to review is still scanned for secrets, in overlapping windows: every secret
 * is found once, at its line, wherever a window ends; the scan stops at its cap and says so.
 * Small windows keep the files small; the arithmetic is the same at full size.
 */
const tempDir = useTempDirs('oy-large-');
const secrets = createSecretFactory(randomInt(2 ** 31));
let cases = 0;
afterAll(() => console.log(`scan large file: ${cases} cases`));

const LIMITS: WindowLimits = { windowBytes: 64 * 1024, overlapBytes: 4 * 1024, maxBytes: 1 << 20 };

function scan(content: string | Buffer, limits = LIMITS) {
  cases++;
  const root = tempDir();
  const absolutePath = path.join(root, 'big.txt');
  writeFileSync(absolutePath, content);
  const candidate: CandidateFile & { reviewSkip: { reason: 'too-large' } } = {
    path: 'big.txt',
    absolutePath,
    size: Buffer.byteLength(content),
    isTracked: true,
    reviewSkip: { reason: 'too-large' },
  };
  const redactor = createRedactor();
  const result = scanLargeFile(candidate, (text) => redactor.redact(text), limits);
  if ('entry' in result) throw new Error(`not scanned: ${JSON.stringify(result.entry)}`);
  return result.scanned;
}

const lines = (redactions: readonly Redaction[]) =>
  redactions.map((redaction) => [redaction.rule, redaction.line]);

/** `count` filler lines of `width` characters (newline included). */
const filler = (count: number, width = 64) => `${'x'.repeat(width - 1)}\n`.repeat(count);

describe('scanLargeFile', () => {
  it('finds a secret at the start, near every window end and at the very end, each once at its line', () => {
    const tokens = Array.from({ length: 5 }, () => secrets.githubToken('p'));
    // 64-byte lines: a window of 64 KiB holds 1,024 of them; put a token around each end.
    const parts = [`t = "${tokens[0]}"\n`];
    const tokenLines = [1];
    let line = 1;
    for (const at of [1020, 2047, 3070]) {
      parts.push(filler(at - line - 1));
      parts.push(`t = "${tokens[tokenLines.length]}"\n`);
      tokenLines.push(at);
      line = at;
    }
    parts.push(filler(500), `t = "${tokens[4]}"`);
    tokenLines.push(line + 501);
    const scanned = scan(parts.join(''));
    expect(lines(scanned.redactions)).toEqual(tokenLines.map((at) => ['github-token', at]));
    expect(scanned.secretsScannedBytes).toBeUndefined();
    expect(JSON.stringify(scanned)).not.toContain(tokens[0]);
  });

  it('finds a private key block that a window end cuts through', () => {
    const key = secrets.rsaPrivateKey();
    // The block starts 600 bytes before the first window's last line: whole only in the next window.
    const before = filler(1024 - 10);
    const scanned = scan(`${before}${key}\n${filler(200)}`);
    expect(lines(scanned.redactions)).toEqual([['pem-private-key', 1024 - 10 + 1]]);
  });

  it('one line longer than a window: a token across the cut is found once, a repeated one twice', () => {
    const token = secrets.githubToken('p');
    const other = secrets.githubToken('p');
    const cut = LIMITS.windowBytes;
    const head = 'a'.repeat(cut - 20);
    const content = `${head} t="${token}" u="${other}" v="${other}" ${'b'.repeat(cut * 2)}`;
    const scanned = scan(content);
    expect(lines(scanned.redactions).sort()).toEqual([
      ['github-token', 1],
      ['github-token', 1],
      ['github-token', 1],
    ]);
  });

  it('reads UTF-16 with a byte order mark as text, and binary content as strings', () => {
    const token = secrets.githubToken('p');
    const wide = Buffer.from(`\uFEFF${filler(2000)}t = "${token}"\n`, 'utf16le');
    expect(lines(scan(wide).redactions)).toEqual([['github-token', 2001]]);
    const binary = Buffer.concat([
      Buffer.alloc(200 * 1024, 0),
      Buffer.from(`\0key=${token}\0`),
      Buffer.alloc(10 * 1024, 7),
    ]);
    expect(lines(scan(binary).redactions)).toEqual([['github-token', 1]]);
  });

  it('stops at its cap, and says how far it read', () => {
    const early = secrets.githubToken('p');
    const late = secrets.githubToken('p');
    const limits = { ...LIMITS, maxBytes: 256 * 1024 };
    const content = `t = "${early}"\n${filler(8000)}t = "${late}"\n`;
    const scanned = scan(content, limits);
    expect(lines(scanned.redactions)).toEqual([['github-token', 1]]);
    expect(scanned.secretsScannedBytes).toBe(256 * 1024);
  });

  it('keeps an oy:allow line with its digest, at its file line', () => {
    const token = secrets.githubToken('p');
    const scanned = scan(`${filler(3000)}t = "${token}"  # oy:allow secret\n${filler(10)}`);
    expect(scanned.allowedSecretLines?.map((allowed) => allowed.line)).toEqual([3001]);
  });
});
