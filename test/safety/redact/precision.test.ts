import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/redactor.js';

const CORPUS_ROOT = path.resolve(import.meta.dirname, '../../../node_modules');
const EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.json', '.md', '.yml']);
// Files this size and up are bundles and data, not code people write.
const MAX_FILE_BYTES = 1024 * 1024;
// About 40 MB keeps the test near ten seconds on a shared core.
const CORPUS_CAP_BYTES = 40 * 1024 * 1024;
// SECURITY.md (the audit's "Proof"): fewer than one false redaction per MB of real code.
const MAX_REDACTIONS_PER_MB = 1;
// Reading and redacting 40 MB takes seconds alone and minutes on a machine shared by many runs.
const PRECISION_TIMEOUT_MS = 600_000;

/** Files of the corpus in a stable order (sorted walk), until the byte cap. */
async function collectCorpus(root: string): Promise<Array<{ file: string; text: string }>> {
  const files: Array<{ file: string; text: string }> = [];
  let total = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      if (total >= CORPUS_CAP_BYTES) return;
      const absolute = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(absolute);
      else if (entry.isFile() && EXTENSIONS.has(path.extname(entry.name))) {
        if ((await stat(absolute)).size >= MAX_FILE_BYTES) continue;
        const text = await readFile(absolute, 'utf8');
        files.push({ file: path.relative(root, absolute), text });
        total += Buffer.byteLength(text);
      }
    }
  };
  await walk(root);
  return files;
}

describe('redaction precision on real code (the installed node_modules)', () => {
  it(
    'makes fewer than 1 redaction per MB where there are no real secrets',
    async () => {
      const corpus = await collectCorpus(CORPUS_ROOT);
      const redactor = createRedactor();
      let bytes = 0;
      const hits: string[] = [];
      for (const { file, text } of corpus) {
        bytes += Buffer.byteLength(text);
        for (const redaction of redactor.redact(text).redactions) {
          hits.push(`${redaction.rule} ${file}:${redaction.line}`);
        }
      }
      const megabytes = bytes / 1_000_000;
      const perMegabyte = hits.length / megabytes;
      console.log(
        `redaction precision: ${megabytes.toFixed(1)} MB scanned in ${corpus.length} files, ${hits.length} redactions, ${perMegabyte.toFixed(3)} per MB`,
      );
      if (hits.length > 0) console.log(hits.slice(0, 50).join('\n'));
      // A corpus too small would make the ratio meaningless.
      expect(megabytes).toBeGreaterThan(10);
      expect(perMegabyte).toBeLessThan(MAX_REDACTIONS_PER_MB);
    },
    PRECISION_TIMEOUT_MS,
  );
});
