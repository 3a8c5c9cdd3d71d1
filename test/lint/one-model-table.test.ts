import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/run-oy.js';

/**
 * Model facts live in one table (src/providers/model-facts/, prices in src/providers/pricing/): no other
 * file imports the raw tables, matches model families by name, or writes down a context window or an
 * output limit. Id parsing (src/providers/model-id/) recognises bare `claude-*`/`gpt-*` ids, which is not a fact.
 */
const TABLE_FOLDERS = ['providers/model-facts', 'providers/pricing', 'providers/model-id'];

const RAW_TABLE_IMPORT =
  /^\s*import (?!type )[^;]*from '[^']*(?:pricing\/price-for|pricing\/price-table|pricing\/prices\.json|model-facts\/known-models)(?:\.js)?'/;
/** A regular expression or a string test naming a model family. */
const FAMILY_MATCH =
  /(?:[(=:,]\s*\/[^/\n]*\b(?:claude|gpt|llama|mistral|nova|gemini|qwen|sonnet|haiku|opus)\b[^/\n]*\/[dgimsuy]*|\.(?:includes|startsWith|endsWith|test)\(\s*['"`](?:claude|gpt|llama|mistral|nova|gemini|qwen|o[134]\b))/i;
/** Context windows and output limits of known models, as written in the table (not a regex's `{1,16384}`). */
const WINDOW_LITERAL =
  /(?<![{,\d_])\b(?:200_?000|128_?000|400_?000|1_?047_?576|131_?072|65_?536|32_?768|16_?384)\b/;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Lines that break the rule, as `file:line: text`; comments are skipped (they may name models). */
export function findStrayFacts(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    const code = line.replace(/^\s*(?:\/\/|\*|\/\*\*?).*$/, '').replace(/\s\/\/ .*$/, '');
    if (RAW_TABLE_IMPORT.test(code) || FAMILY_MATCH.test(code) || WINDOW_LITERAL.test(code))
      found.push(`${file}:${index + 1}: ${line.trim()}`);
  }
  return found;
}

describe('one table of model facts', () => {
  it('no file outside the table reads the raw tables, matches families by name or writes a window', () => {
    const src = path.join(PROJECT_ROOT, 'src');
    const outside = sourceFiles(src).filter(
      (file) => !TABLE_FOLDERS.some((folder) => file.startsWith(path.join(src, folder) + path.sep)),
    );
    expect(outside.length).toBeGreaterThan(100);
    const stray = outside.flatMap((file) =>
      findStrayFacts(path.relative(PROJECT_ROOT, file), readFileSync(file, 'utf8')),
    );
    expect(stray).toEqual([]);
  });

  it.each([
    ["import { priceFor } from '../../providers/pricing/price-for.js';"],
    ["import { PRICE_ENTRIES, type Price } from '../../providers/pricing/price-table.js';"],
    ["import { KNOWN_MODELS } from '../providers/model-facts/known-models.js';"],
    ['const isClaude = /claude-3/.test(name);'],
    ["if (ref.model.startsWith('gpt')) return 1.0;"],
    ["const thinks = ['o3'].some((m) => name.startsWith(m)) || name.includes('claude');"],
    ['const CONTEXT = 200_000;'],
    ['maxTokens: Math.min(limit, 128000),'],
  ])('control: flags %s', (line) => {
    expect(findStrayFacts('src/audit/example.ts', line)).toHaveLength(1);
  });

  it('control: leaves comments and unrelated code alone', () => {
    expect(
      findStrayFacts(
        'src/audit/example.ts',
        [
          '// Claude models think; see the table.',
          ' * 200000 tokens is a big window',
          'const facts = modelFactsFor(ref);',
          "import type { Price } from '../../providers/pricing/price-table.js';",
          'const KEY = /private_key["\']([^"\'\\r\\n]{20,16384})/dy;',
          "const example = '--model anthropic::claude-haiku-4-5';",
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
