import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderChunks } from '../../../src/audit/review/render-chunks.js';
import { hashText } from '../../../src/audit/scan/scan-text.js';
import type { CandidateFile, Chunk } from '../../../src/audit/types.js';
import { createRedactor, type Redactor } from '../../../src/safety/redact/redactor.js';

console.log('render-chunks: 2 cases');

// An AWS access key id made at run time: `AKIA` and 16 upper-case letters or digits.
function awsKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  return `AKIA${Array.from(randomBytes(16), (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

async function renderTwoFiles(
  files: Record<string, string>,
  createRedactorFor: () => Redactor,
): Promise<string[]> {
  const root = mkdtempSync(path.join(tmpdir(), 'oy-render-chunks-'));
  const candidates = new Map<string, CandidateFile>();
  const sourceHashes = new Map<string, string>();
  const chunks: Chunk[] = [];
  for (const [name, text] of Object.entries(files)) {
    const absolutePath = path.join(root, name);
    writeFileSync(absolutePath, text);
    candidates.set(name, { path: name, absolutePath, size: text.length, isTracked: false });
    sourceHashes.set(name, hashText(text));
    const lines = text.split('\n').length;
    chunks.push({
      id: name,
      parts: [
        { path: name, startLine: 1, endLine: lines, isSplit: false, tokens: 1, contentHash: '' },
      ],
      tokens: 1,
      riskScore: 0,
    });
  }
  const { rendered } = await renderChunks(chunks, {
    candidates,
    sourceHashes,
    createRedactor: createRedactorFor,
    maxFileBytes: 1024 * 1024,
  });
  return rendered.map((item) => ('text' in item ? item.text : JSON.stringify(item.failure)));
}

describe('renderChunks: placeholder numbers per file', () => {
  const first = awsKey();
  const second = awsKey();
  const added = awsKey();
  const before = { 'a.ts': `const a = "${first}";\n`, 'b.ts': `const b = "${second}";\n` };
  const after = { ...before, 'a.ts': `const n = "${added}";\n${before['a.ts']}` };

  it('a secret added to one file changes no other chunk text (so no other cache key)', async () => {
    const [aBefore, bBefore] = await renderTwoFiles(before, () => createRedactor());
    const [aAfter, bAfter] = await renderTwoFiles(after, () => createRedactor());
    expect(bAfter).toBe(bBefore);
    expect(aAfter).not.toBe(aBefore);
    for (const text of [aBefore, bBefore, aAfter, bAfter])
      for (const secret of [first, second, added]) expect(text).not.toContain(secret);
    expect(bAfter).toContain('[REDACTED:');
  });

  it('control: one run-wide redactor would renumber the other file', async () => {
    const shared = (): (() => Redactor) => {
      const redactor = createRedactor();
      return () => redactor;
    };
    const [, bBefore] = await renderTwoFiles(before, shared());
    const [, bAfter] = await renderTwoFiles(after, shared());
    expect(bAfter).not.toBe(bBefore);
  });
});
