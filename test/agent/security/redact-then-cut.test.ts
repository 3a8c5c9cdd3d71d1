import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_STREAM_BYTES, OutputCapture } from '../../../src/agent/shell/capture-output.js';
import { readTool } from '../../../src/agent/tools/read-tool.js';
import { MAX_HIT_CHARS } from '../../../src/agent/tools/read/match-worker.js';
import { MAX_LINE_CHARS, numberLines } from '../../../src/agent/tools/read/number-lines.js';
import { replaceTool } from '../../../src/agent/tools/replace-tool.js';
import { searchTool } from '../../../src/agent/tools/search-tool.js';
import { isWordCharacter } from '../../../src/safety/redact/define-token-rule.js';
import type { RedactionRule } from '../../../src/safety/redact/redaction-rule.js';
import { REDACTION_RULE_SET } from '../../../src/safety/redact/redaction-rules.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { makeToolContext } from '../tools/make-tool-context.js';

// Seeded from the clock: new tokens every run, printed so a failure can be replayed.
const seed = Date.now() % 1_000_000_007;
const f = createSecretFactory(seed);
let cases = 0;
afterAll(() => console.log(`redact then cut: ${cases} cases (seed ${seed})`));

const TOKENS: Array<[family: string, make: () => string]> = [
  ['github', () => f.githubToken('p')],
  ['github fine-grained', () => f.githubFineGrained()],
  ['anthropic', () => f.anthropicKey()],
  ['openai', () => f.openaiProjectKey()],
  ['stripe', () => f.stripeLive('s')],
  ['aws', () => f.awsAccessKeyId()],
  ['slack', () => f.slackBotToken()],
  ['npm', () => f.npmToken()],
  ['jwt', () => f.jwt()],
];

/** Places a token so that `cutAt` falls `inside` characters into it. */
function straddling(cutAt: number, token: string, inside: number, lead = ''): string {
  return `${lead}${' '.repeat(cutAt - lead.length - inside)}${token} and more text after it`;
}

/** Cut points inside a token: near each end and in the middle. */
function insideOffsets(token: string): number[] {
  const n = token.length;
  return [...new Set([1, 3, 5, 8, 12, Math.floor(n / 2), n - 8, n - 3, n - 1])].filter(
    (k) => k > 0 && k < n,
  );
}

/** No prefix of the token (from 6 characters on) and no 8-character end of it appears. */
function expectNoPart(shown: string, token: string): void {
  // Placeholders name their rule (`github-token`), which is no part of the value.
  const output = shown.replace(/\[REDACTED:[a-z0-9-]+:\d+\]/g, '[]');
  for (let length = 6; length <= token.length; length += 1)
    expect(output).not.toContain(token.slice(0, length));
  expect(output).not.toContain(token.slice(-8));
}

let sandbox: string;
let root: string;
beforeEach(() => {
  sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-redact-cut-')));
  root = path.join(sandbox, 'ws');
  mkdirSync(root);
});
afterEach(() => rmSync(sandbox, { recursive: true, force: true }));

describe(`read cuts lines at ${MAX_LINE_CHARS} characters after redacting`, () => {
  it.each(TOKENS)('%s token across the cut: no part of it is shown', async (_family, make) => {
    const token = make();
    const lines = insideOffsets(token).map((inside) => straddling(MAX_LINE_CHARS, token, inside));
    writeFileSync(path.join(root, 'long.txt'), `${lines.join('\n')}\n`);
    const result = await readTool.run({ path: 'long.txt' }, makeToolContext(root));
    expect(result.ok).toBe(true);
    expect(result.content).toContain('line cut');
    expectNoPart(result.content, token);
    cases += lines.length;
  });

  it('control: cutting first, then redacting, shows the prefix', () => {
    const token = f.githubToken('p');
    const cut = numberLines([straddling(MAX_LINE_CHARS, token, 12)], 1, 1, 90_000).content;
    expect(createRedactor().redact(cut).text).toContain(token.slice(0, 12));
    cases += 1;
  });
});

describe(`search shows ${MAX_HIT_CHARS} characters of a line after redacting`, () => {
  // The window starts at the match (at 0 here) and keeps MAX_HIT_CHARS - 2 characters.
  const shownChars = MAX_HIT_CHARS - 2;

  it.each(TOKENS)('%s token across the cut: no part of it is shown', async (_family, make) => {
    const token = make();
    const lines = insideOffsets(token).map((inside) =>
      straddling(shownChars, token, inside, 'NEEDLE'),
    );
    writeFileSync(path.join(root, 'long.txt'), `${lines.join('\n')}\n`);
    const result = await searchTool.run({ pattern: 'NEEDLE' }, makeToolContext(root));
    expect(result.ok).toBe(true);
    expect(JSON.parse(result.content)).toMatchObject({ count: lines.length });
    expectNoPart(result.content, token);
    cases += lines.length;
  });

  it('does not match a secret by its value (the search is over redacted text)', async () => {
    const token = f.githubToken('p');
    writeFileSync(path.join(root, 'config.ts'), `const token = "${token}";\n`);
    const result = await searchTool.run({ pattern: token.slice(0, 10) }, makeToolContext(root));
    expect(JSON.parse(result.content)).toMatchObject({ count: 0 });
    cases += 1;
  });

  it('control: without redacting first, the window shows the prefix', async () => {
    const token = f.githubToken('p');
    writeFileSync(path.join(root, 'long.txt'), `${straddling(shownChars, token, 12, 'NEEDLE')}\n`);
    const context = makeToolContext(root, { overrides: { redact: (text) => text } });
    const raw = await searchTool.run({ pattern: 'NEEDLE' }, context);
    expect(createRedactor().redact(raw.content).text).toContain(token.slice(0, 12));
    cases += 1;
  });
});

describe('bash output keeps its head and tail without a split token at either edge', () => {
  const half = MAX_STREAM_BYTES / 2;

  function captured(text: string): string {
    const output = new OutputCapture();
    for (let at = 0; at < text.length; at += 65_536)
      output.append(Buffer.from(text.slice(at, at + 65_536)));
    return createRedactor().redact(output.finish().text).text;
  }

  it.each(TOKENS)('%s token across the head or the tail cut', (_family, make) => {
    for (const inside of insideOffsets(make())) {
      const token = make();
      // Head cut at `half`; the tail cut falls `inside` characters into the second token.
      const total = 3 * MAX_STREAM_BYTES;
      const headPart = straddling(half, token, inside);
      const tailStart = total - half;
      const second = make();
      const middle = ' '.repeat(tailStart - headPart.length - (second.length - inside));
      const text = `${headPart}${middle}${second}${' '.repeat(half - inside)}`;
      const output = captured(text);
      expect(output).toContain('bytes of output cut');
      expectNoPart(output, token);
      expectNoPart(output, second);
      cases += 2;
    }
  });

  it('control: the raw head of the stream ends with the prefix', () => {
    const token = f.githubToken('p');
    const head = straddling(half, token, 12).slice(0, half);
    expect(createRedactor().redact(head).text).toContain(token.slice(0, 12));
    cases += 1;
  });
});

describe('replace cannot glue a character onto a token to read it back', () => {
  /** The built-in rules as they were: a token after a letter or digit was not one. */
  const wordStartRules = (): RedactionRule[] =>
    REDACTION_RULE_SET.map((rule): RedactionRule => {
      if (rule.scope !== 'anchored') return rule;
      return {
        ...rule,
        findAt: (text, at) =>
          at > 0 && isWordCharacter(text.charCodeAt(at - 1)) ? undefined : rule.findAt(text, at),
      };
    });

  async function glueAndRead(redact?: (text: string) => string): Promise<string> {
    const context = makeToolContext(root, redact === undefined ? {} : { overrides: { redact } });
    const glued = await replaceTool.run(
      { pattern: 'echo ', replacement: 'echo X', path: 'deploy.sh', mode: 'literal' },
      context,
    );
    expect(glued.ok, glued.content).toBe(true);
    const read = await readTool.run({ path: 'deploy.sh' }, context);
    const search = await searchTool.run({ pattern: 'echo' }, context);
    return `${glued.content}\n${read.content}\n${search.content}`;
  }

  it.each(TOKENS)('%s token', async (_family, make) => {
    const token = make();
    writeFileSync(path.join(root, 'deploy.sh'), `echo ${token} | deploy\n`);
    const shown = await glueAndRead();
    expect(readFileSync(path.join(root, 'deploy.sh'), 'utf8')).toContain(`echo X${token}`);
    expectNoPart(shown, token);
    cases += 1;
  });

  it('control: with the old word-start rule the glued token is read back', async () => {
    const token = f.githubToken('p');
    writeFileSync(path.join(root, 'deploy.sh'), `echo ${token} | deploy\n`);
    const old = createRedactor({ rules: wordStartRules() });
    expect(await glueAndRead((text) => old.redact(text).text)).toContain(token);
    cases += 1;
  });
});
