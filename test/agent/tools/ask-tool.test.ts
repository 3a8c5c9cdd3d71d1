import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interaction } from '../../../src/agent/authorize/interaction.js';
import { askTool } from '../../../src/agent/tools/ask-tool.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { makeToolContext } from './make-tool-context.js';

let root: string;

/** Someone who answers the ask tool's questions with `ask` (and no to any approval). */
function asking(ask: Interaction['ask']): Interaction {
  return { approve: async () => 'no', ask };
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-ask-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('ask tool', () => {
  it('asks the user in an interactive run and returns the answer', async () => {
    const asked: [string, readonly string[]][] = [];
    const context = makeToolContext(root, {
      isInteractive: true,
      overrides: {
        interaction: asking((question, choices) => {
          asked.push([question, choices]);
          return Promise.resolve('Postgres');
        }),
      },
    });
    const result = await askTool.run(
      { question: 'Which database?', choices: ['Postgres', 'SQLite'] },
      context,
    );
    expect(JSON.parse(result.content)).toEqual({ ok: true, answer: 'Postgres' });
    expect(asked).toEqual([['Which database?', ['Postgres', 'SQLite']]]);
    expect(context.approvals[0]).toMatchObject({
      action: { kind: 'ask', tool: 'ask' },
      preview: 'Which database?\nchoices: Postgres | SQLite',
    });
  });

  it('passes an empty choice list for an open question', async () => {
    let seen: readonly string[] | undefined;
    const context = makeToolContext(root, {
      isInteractive: true,
      overrides: {
        interaction: asking((_question, choices) => {
          seen = choices;
          return Promise.resolve('whatever you think');
        }),
      },
    });
    const result = await askTool.run({ question: 'Any naming preference?' }, context);
    expect(JSON.parse(result.content)).toEqual({ ok: true, answer: 'whatever you think' });
    expect(seen).toEqual([]);
  });

  it('is refused in a non-interactive run, with a reason for the model', async () => {
    let calls = 0;
    const context = makeToolContext(root, {
      overrides: {
        interaction: asking(() => {
          calls += 1;
          return Promise.resolve('never');
        }),
      },
    });
    const result = await askTool.run({ question: 'Proceed?' }, context);
    expect(result.ok).toBe(false);
    expect(result.denied?.rule).toBe('interactive-only');
    expect(JSON.parse(result.content).error).toMatch(
      /only in interactive runs.*say what you assumed/,
    );
    expect(calls).toBe(0);
  });

  it('fails clearly when the policy allows it but no one can answer', async () => {
    const context = makeToolContext(root, { isInteractive: true });
    const result = await askTool.run({ question: 'Proceed?' }, context);
    expect(result.ok).toBe(false);
    expect(JSON.parse(result.content).error).toMatch(/interactive runs/);
  });

  it('redacts secrets in the answer and rejects bad arguments', async () => {
    const key = createSecretFactory(9).awsAccessKeyId();
    const context = makeToolContext(root, {
      isInteractive: true,
      overrides: { interaction: asking(() => Promise.resolve(`use ${key}`)) },
    });
    const result = await askTool.run({ question: 'Which key?' }, context);
    expect(result.ok).toBe(true);
    expect(result.content).not.toContain(key);
    expect(JSON.parse((await askTool.run({ question: '' }, context)).content).error).toMatch(
      /invalid arguments: question/,
    );
  });
});
