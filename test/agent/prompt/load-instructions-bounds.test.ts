import { execFileSync } from 'node:child_process';
import { statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../../../src/agent/prompt/build-system-prompt.js';
import {
  loadInstructions,
  MAX_INSTRUCTIONS_BYTES,
} from '../../../src/agent/prompt/load-instructions.js';
import { readFileHead } from '../../../src/agent/prompt/read-file-head.js';
import { createRedactor } from '../../../src/safety/redact/index.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { makeWorkspace } from '../loop/loop-harness.js';

const redactor = createRedactor();
const redact = (text: string) => redactor.redact(text).text;
const seed = Date.now() % 1_000_000_007;
const f = createSecretFactory(seed);
let cases = 0;
afterAll(() => console.log(`instructions bounds: ${cases} cases (seed ${seed})`));

const HUGE_BYTES = 400 * 1024 * 1024;

/** The real reader, counting what it hands back. */
function countingReader() {
  const counted = { bytes: 0, calls: 0 };
  const readHead = async (file: string, maxBytes: number) => {
    const bytes = await readFileHead(file, maxBytes);
    counted.bytes += bytes.length;
    counted.calls += 1;
    return bytes;
  };
  return { counted, readHead };
}

describe('instruction files are read only up to their cap', () => {
  it('a 400 MB (sparse) AGENTS.md costs its first bytes, and the prompt says it was cut', async () => {
    const root = makeWorkspace('oy-huge-agents-');
    const file = path.join(root, 'AGENTS.md');
    writeFileSync(file, 'Use tabs.\n');
    truncateSync(file, HUGE_BYTES);
    expect(statSync(file).size).toBe(HUGE_BYTES);
    const { counted, readHead } = countingReader();
    const loaded = await loadInstructions({ workspaceRoot: root, redact, readHead });
    // The cap, the margin read to redact before cutting, and one byte to see there is more.
    expect(counted.bytes).toBeLessThanOrEqual(2 * MAX_INSTRUCTIONS_BYTES + 1);
    expect(loaded.files).toHaveLength(1);
    expect(loaded.files[0]!.text.startsWith('Use tabs.\n')).toBe(true);
    expect(loaded.files[0]!.isTruncated).toBe(true);
    const prompt = buildSystemPrompt({
      mode: 'plan',
      workspaceRoot: root,
      today: '2026-01-31',
      isInteractive: false,
      instructions: loaded.files,
      todos: [],
    });
    expect(prompt).toContain('truncated at the 32 KiB');
    cases += 1;
  });

  it('a huge user instructions file and a huge OY.md share the one budget', async () => {
    const root = makeWorkspace('oy-huge-oy-');
    const user = path.join(makeWorkspace('oy-huge-user-'), 'instructions.md');
    for (const file of [user, path.join(root, 'OY.md')]) {
      writeFileSync(file, 'x');
      truncateSync(file, HUGE_BYTES);
    }
    const { counted, readHead } = countingReader();
    const loaded = await loadInstructions({
      workspaceRoot: root,
      userInstructionsFile: user,
      redact,
      readHead,
    });
    expect(counted.bytes).toBeLessThanOrEqual(2 * MAX_INSTRUCTIONS_BYTES + 1);
    const total = loaded.files.reduce((sum, one) => sum + Buffer.byteLength(one.text), 0);
    expect(total).toBe(MAX_INSTRUCTIONS_BYTES);
    cases += 1;
  });

  it('a FIFO named AGENTS.md is skipped instead of hanging the start', async () => {
    const root = makeWorkspace('oy-fifo-agents-');
    execFileSync('mkfifo', [path.join(root, 'AGENTS.md')]);
    const loaded = await loadInstructions({ workspaceRoot: root, redact });
    expect(loaded.files).toEqual([]);
    // And the reader itself refuses a FIFO at once (the open does not wait for a writer).
    await expect(readFileHead(path.join(root, 'AGENTS.md'), 10)).rejects.toThrow(/not a regular/);
    cases += 1;
  });

  it.each([1, 4, 10, 20, 30])(
    'a token %i characters across the 32 KiB cut leaves no prefix in the prompt',
    async (inside) => {
      const root = makeWorkspace('oy-cut-agents-');
      const token = f.githubToken('p');
      const lead = ' '.repeat(MAX_INSTRUCTIONS_BYTES - inside);
      writeFileSync(path.join(root, 'AGENTS.md'), `${lead}${token} and more\n`);
      const loaded = await loadInstructions({ workspaceRoot: root, redact });
      const text = loaded.files.map((one) => one.text).join('\n');
      expect(text).not.toContain(token.slice(0, Math.min(inside, 6)));
      cases += 1;
    },
  );

  it('control: cutting at 32 KiB first, then redacting, keeps the prefix', () => {
    const token = f.githubToken('p');
    const text = `${' '.repeat(MAX_INSTRUCTIONS_BYTES - 10)}${token}`;
    expect(redact(text.slice(0, MAX_INSTRUCTIONS_BYTES))).toContain(token.slice(0, 10));
    cases += 1;
  });
});
