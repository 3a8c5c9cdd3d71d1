import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HINT_RULES } from '../../../src/audit/hints/hint-rules.js';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { MAX_EXCERPT_CHARS } from '../../../src/audit/hints/make-excerpt.js';
import { SEVERITIES } from '../../../src/audit/types.js';

const NODE_MODULES = path.resolve(import.meta.dirname, '../../../node_modules');
// A few megabytes of installed packages: enough variety (bundles, sources, tests, docs) to shake out crashes.
const SLICE_BYTES = 6 * 1024 * 1024;
const MAX_FILE_BYTES = 1024 * 1024;
const EXTENSIONS = /\.(?:js|mjs|cjs|ts|tsx|md|json|yml|yaml|py|sh)$/;

function readSlice(): { path: string; text: string }[] {
  const files: { path: string; text: string }[] = [];
  let total = 0;
  const pending = [NODE_MODULES];
  while (pending.length > 0 && total < SLICE_BYTES) {
    const dir = pending.shift() as string;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (
        entry.isFile() &&
        EXTENSIONS.test(entry.name) &&
        statSync(full).size < MAX_FILE_BYTES &&
        total < SLICE_BYTES
      ) {
        const text = readFileSync(full, 'utf8');
        total += text.length;
        files.push({ path: path.relative(NODE_MODULES, full).split(path.sep).join('/'), text });
      }
    }
  }
  return files;
}

describe('indexing real code', () => {
  it('never throws and returns well-formed hints over a slice of node_modules', () => {
    const files = readSlice();
    expect(files.length).toBeGreaterThan(100);
    const ruleIds = new Map(HINT_RULES.map((r) => [r.id, r.category]));
    let hintCount = 0;
    for (const file of files) {
      const hints = indexFile(file);
      const lineCount = file.text.split('\n').length;
      for (const hint of hints) {
        hintCount += 1;
        expect(ruleIds.get(hint.ruleId), hint.ruleId).toBe(hint.category);
        expect(SEVERITIES).toContain(hint.severity);
        expect(hint.path).toBe(file.path);
        expect(Number.isInteger(hint.line) && hint.line >= 1 && hint.line <= lineCount).toBe(true);
        expect(hint.excerpt.length).toBeLessThanOrEqual(MAX_EXCERPT_CHARS);
        expect(hint.message).not.toContain('\n');
        if (!/\\u[0-9A-F]{4}/.test(hint.excerpt)) expect(file.text).toContain(hint.excerpt);
      }
      const sorted = [...hints].sort((a, b) => a.line - b.line || (a.ruleId < b.ruleId ? -1 : 1));
      expect(hints).toEqual(sorted);
    }
    expect(hintCount).toBeGreaterThan(0);
  });
});
