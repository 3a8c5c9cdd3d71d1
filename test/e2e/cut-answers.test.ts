import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/audit/types.js';
import type { FakeProtocol, FakeProviderServer } from '../fakes/fake-provider-server.js';
import type { ScriptedAnswer, ScriptedReply } from '../fakes/script.js';
import type { ScriptedStopReason } from '../fakes/stop-reasons.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';

/**
 * Only a whole answer is a review, for each provider through its SDK and the built CLI: a map answer
 * cut off (at the output limit or the context window) is reviewed again in halves, and the critical
 * finding it would have lost gates; a refused one, whose text parses, is `failed(refused)` and the run
 * exits 4. The vulnerable line is made afresh on every run.
 */
const MODELS: Record<FakeProtocol, string> = {
  anthropic: 'anthropic::claude-haiku-4-5',
  bedrock: 'bedrock::us.anthropic.claude-haiku-4-5-20251001-v1:0',
  openai: 'openai::gpt-4o-mini',
};

let fake: FakeProviderServer;
let repo: string;
let home: string;
let riskyLine: string;
let cases = 0;

beforeEach(async () => {
  fake = await startFakeProvider();
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-cut-answers-')));
  home = mkdtempSync(path.join(tmpdir(), 'oy-cut-answers-home-'));
  const name = `convert_${randomBytes(4).toString('hex')}`;
  riskyLine = `    subprocess.call("${name} " + request.args["file"], shell=True)`;
  mkdirSync(path.join(repo, 'app'));
  // Two files, each near the smallest chunk budget, so two chunks; the risky one is reviewed first.
  const filler = (prefix: string) =>
    Array.from({ length: 60 }, (_, n) => `${prefix}_${n} = compute(${n}, "${prefix}")`);
  writeFileSync(
    path.join(repo, 'app', 'convert.py'),
    ['import subprocess', 'def convert(request):', riskyLine, ...filler('c')].join('\n') + '\n',
  );
  writeFileSync(path.join(repo, 'app', 'totals.py'), [...filler('t')].join('\n') + '\n');
  commitAll(repo);
  // The outputs' folder is ignored by the clone, not by a tracked file that would share a chunk.
  writeFileSync(path.join(repo, '.git', 'info', 'exclude'), 'out/\n');
});

afterEach(async () => {
  await fake.close();
  cases++;
});

afterAll(() => console.log(`cut answers: ${cases} cases`));

function critical(): object {
  return {
    title: 'Command injection in convert',
    severity: 'critical',
    category: 'command-injection',
    path: 'app/convert.py',
    line: 3,
    end_line: 3,
    evidence: riskyLine.trim(),
    impact: 'runs shell commands from the request',
    preconditions: 'none',
    fix: 'pass an argument list without a shell',
    confidence: 0.9,
  };
}

const answer = (findings: object[], stopReason?: ScriptedStopReason): ScriptedAnswer => ({
  kind: 'answer',
  text: JSON.stringify({ findings }),
  ...(stopReason ? { stopReason } : {}),
});

/** The attack: one whole JSON answer, then a second cut off where the critical finding was. */
const cutAnswer = (stopReason: ScriptedStopReason): ScriptedAnswer => ({
  kind: 'answer',
  text: `${JSON.stringify({ findings: [] })}\n{"findings": [{"title": "Command inj`,
  stopReason,
});

const REDUCE = {
  kind: 'answer',
  text: JSON.stringify({ summary: 'Fix it.', order: ['F1'], merge: [] }),
} as const;

async function audit(protocol: FakeProtocol, script: ScriptedReply[]) {
  fake.enqueue(...script);
  const result = await runOy(
    [
      ...['audit', '--model', MODELS[protocol], '--chunk-tokens', '1000', '--concurrency', '1'],
      ...['--fail-on', 'high', '--manifest', 'out/ledger.json', '--verbose'],
    ],
    {
      cwd: repo,
      env: { ...fakeProviderEnv(fake), XDG_CACHE_HOME: path.join(home, 'cache') },
    },
  );
  const ledger = JSON.parse(readFileSync(path.join(repo, 'out', 'ledger.json'), 'utf8')) as {
    files: LedgerEntry[];
  };
  const entry = (file: string) => ledger.files.find((item) => item.path === file);
  return { ...result, entry };
}

/** Each service's own ways of ending an answer early (`test/fakes/stop-reasons.ts`). */
const CUT_OFF: Record<FakeProtocol, ScriptedStopReason> = {
  anthropic: 'max_tokens',
  bedrock: 'max_tokens',
  openai: 'max_tokens', // sent as finish_reason `length`
};
const REFUSED: Record<FakeProtocol, ScriptedStopReason> = {
  anthropic: 'refusal',
  bedrock: 'guardrail_intervened',
  openai: 'content_filter',
};
/** OpenAI-compatible servers refuse an over-long prompt with a 400; the others stop the answer. */
const CONTEXT_EXCEEDED: Record<FakeProtocol, ScriptedReply> = {
  anthropic: cutAnswer('model_context_window_exceeded'),
  bedrock: cutAnswer('model_context_window_exceeded'),
  openai: { kind: 'error', status: 400, errorType: 'context_length_exceeded' },
};

describe.each(['anthropic', 'bedrock', 'openai'] as const)(
  'audit with %s: cut answers',
  (protocol) => {
    it('a truncated map answer is reviewed again in halves; the finding it cut off gates (exit 3)', async () => {
      const result = await audit(protocol, [
        cutAnswer(CUT_OFF[protocol]),
        answer([critical()]),
        answer([]),
        answer([]),
        REDUCE,
      ]);
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).toMatch(/^gate: .*app\/convert\.py:3/m);
      expect(result.stderr).toMatch(/^note: .*app\/convert\.py.*cut off .*two halves$/m);
      expect(result.entry('app/convert.py')).toMatchObject({ status: 'reviewed' });
      expect(fake.modelCalls).toHaveLength(5);
      fake.assertDone();
    });

    it('a refused map answer whose text parses is failed(refused), and the run exits 4', async () => {
      const result = await audit(protocol, [answer([critical()], REFUSED[protocol]), answer([])]);
      expect(result.code, result.stderr).toBe(4);
      expect(result.entry('app/convert.py')).toMatchObject({ status: 'failed', reason: 'refused' });
      expect(result.entry('app/totals.py')).toMatchObject({ status: 'reviewed' });
      expect(result.stderr).not.toMatch(/^gate: `--fail-on/m);
      fake.assertDone();
    });

    it('a context-exceeded answer is reviewed again in halves; the finding gates (exit 3)', async () => {
      const result = await audit(protocol, [
        CONTEXT_EXCEEDED[protocol],
        answer([critical()]),
        answer([]),
        answer([]),
        REDUCE,
      ]);
      expect(result.code, result.stderr).toBe(3);
      expect(result.entry('app/convert.py')).toMatchObject({ status: 'reviewed' });
      fake.assertDone();
    });
  },
);

describe('audit: cut answers at every depth', () => {
  it('an answer cut off even in quarters is failed(truncated): exit 4, no finding taken from it', async () => {
    const cut = answer([critical()], 'max_tokens');
    const result = await audit('anthropic', [...Array.from({ length: 7 }, () => cut), answer([])]);
    expect(result.code, result.stderr).toBe(4);
    expect(result.entry('app/convert.py')).toMatchObject({ status: 'failed', reason: 'truncated' });
    fake.assertDone();
  });

  it('control: whole answers, one call per chunk, the finding gates', async () => {
    const result = await audit('anthropic', [answer([critical()]), answer([]), REDUCE]);
    expect(result.code, result.stderr).toBe(3);
    expect(fake.modelCalls).toHaveLength(3);
    fake.assertDone();
  });
});
