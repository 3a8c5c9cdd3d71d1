import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditOptions } from '../../../src/audit/audit-options.js';
import { runAudit, type AuditDeps } from '../../../src/audit/run-audit.js';
import { MAX_SPLIT_DEPTH } from '../../../src/audit/review/run-map-phase.js';
import type { ScriptedAnswer, ScriptedReply } from '../../fakes/script.js';
import type { ScriptedStopReason } from '../../fakes/stop-reasons.js';
import { ScriptedModelClient } from '../../fakes/scripted-model-client.js';

/** Only a whole answer is a review: the map and reduce paths against answers that did not end normally. */

const MODEL = 'anthropic::claude-haiku-4-5';
const RISKY_LINE = 'exec(`convert ${req.body.input} out.png`);';
const QUIET_LINE = 'export const total = values.reduce((sum, value) => sum + value, 0);';
let root: string;
let runs = 0;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-whole-answers-')));
  mkdirSync(path.join(root, 'quiet'));
  mkdirSync(path.join(root, 'risky'));
  // Two chunks (one file each); the risky one is reviewed first.
  const filler = (name: string) =>
    Array.from({ length: 40 }, (_, n) => `export const ${name}${n} = compute(${n}, '${name}');`);
  writeFileSync(path.join(root, 'quiet', 'sum.js'), [QUIET_LINE, ...filler('q')].join('\n') + '\n');
  writeFileSync(
    path.join(root, 'risky', 'convert.js'),
    ["const { exec } = require('child_process');", RISKY_LINE, ...filler('r')].join('\n') + '\n',
  );
});

function optionsFor(overrides: Partial<AuditOptions> = {}): AuditOptions {
  runs += 1;
  return {
    root,
    format: 'json',
    out: `report-${runs}.json`,
    manifest: null,
    isForced: false,
    include: [],
    exclude: [],
    projectInclude: [],
    projectExclude: [],
    focus: [],
    diffRef: null,
    maxFileBytes: 1024 * 1024,
    chunkTokens: 700,
    maxChunks: 1000,
    tokenHeadroom: 1.3,
    encoding: 'o200k_base',
    isDryRun: false,
    concurrency: 1,
    maxCostUsd: null,
    failOn: 'high',
    baselinePath: null,
    writeBaselinePath: null,
    minCoverage: null,
    allowPartial: false,
    model: MODEL,
    cacheDir: null,
    command: 'oy audit',
    scanConcurrency: 2,
    env: {},
    ...overrides,
  };
}

const RISKY_FINDING = {
  title: 'Command injection in convert',
  severity: 'critical',
  category: 'command-injection',
  path: 'risky/convert.js',
  line: 2,
  end_line: 2,
  evidence: RISKY_LINE,
  impact: 'runs shell commands from the request',
  preconditions: 'none',
  fix: 'use execFile with an argument list',
  confidence: 0.9,
};

const answer = (findings: object[], stopReason?: ScriptedStopReason): ScriptedAnswer => ({
  kind: 'answer',
  text: JSON.stringify({ findings }),
  ...(stopReason ? { stopReason } : {}),
});

/** The attack of issue 26: one whole JSON answer, then a second one cut off where the critical finding was. */
const CUT_AFTER_A_WHOLE_ARRAY: ScriptedAnswer = {
  kind: 'answer',
  text: `${JSON.stringify({ findings: [] })}\n{"findings": [{"title": "Command inj`,
  stopReason: 'max_tokens',
};

const REDUCE = {
  kind: 'answer',
  text: JSON.stringify({ summary: 'Fix the exec.', order: ['F1'], merge: [] }),
} as const;

function scripted(script: ScriptedReply[]) {
  const fake = new ScriptedModelClient({ script, model: MODEL });
  const notices: string[] = [];
  const deps: Partial<AuditDeps> = { createClient: async () => fake };
  return { fake, deps, notices };
}

async function audit(script: ScriptedReply[], overrides: Partial<AuditOptions> = {}) {
  const { fake, deps, notices } = scripted(script);
  const outcome = await runAudit(
    optionsFor({ onNotice: (text) => notices.push(text), ...overrides }),
    deps,
  );
  if (outcome.kind !== 'report') throw new Error('expected a report');
  const entry = (file: string) => outcome.report.coverage.ledger.find((item) => item.path === file);
  return { ...outcome, fake, notices, entry };
}

const isMapCall = (rawBody: string) => rawBody.includes('=====OY-DATA-');

describe('a map answer that did not end normally', () => {
  it('cut off at max_tokens after one whole array: never accepted; the chunk is reviewed in halves and the critical finding gates', async () => {
    const { report, gates, fake, entry, notices } = await audit([
      CUT_AFTER_A_WHOLE_ARRAY,
      answer([RISKY_FINDING]),
      answer([]),
      answer([]),
      REDUCE,
    ]);
    // Four map calls (the cut one, two halves, the quiet chunk) and the reduce.
    expect(fake.calls.filter((call) => isMapCall(call.rawBody))).toHaveLength(4);
    const [, firstHalf, secondHalf] = fake.calls;
    expect(firstHalf!.rawBody).toContain('=== risky/convert.js (lines 1-21) ===');
    expect(secondHalf!.rawBody).toContain('=== risky/convert.js (lines 12-42) ===');
    expect(report.findings.map((item) => item.title)).toEqual(['Command injection in convert']);
    expect(entry('risky/convert.js')).toMatchObject({ status: 'reviewed' });
    expect(gates.exitCode).toBe(3);
    expect(notices.join('\n')).toMatch(/risky\/convert\.js: the answer was cut off .*two halves/);
  });

  it('control: the same whole answer with end_turn is taken as it is, in one call', async () => {
    const { fake, gates } = await audit([answer([RISKY_FINDING]), answer([]), REDUCE]);
    expect(fake.calls).toHaveLength(3);
    expect(gates.exitCode).toBe(3);
  });

  it('cut off even in quarters: failed(truncated), the run partial (exit 4) and no finding taken from a cut answer', async () => {
    const pieces = 2 ** (MAX_SPLIT_DEPTH + 1) - 1;
    const cut = answer([RISKY_FINDING], 'max_tokens');
    const { report, gates, fake, entry } = await audit([
      ...Array.from({ length: pieces }, () => cut),
      answer([]),
    ]);
    expect(fake.calls).toHaveLength(pieces + 1);
    expect(entry('risky/convert.js')).toMatchObject({
      status: 'failed',
      reason: 'truncated',
      detail: expect.stringContaining('even in 4 pieces'),
    });
    expect(report.findings).toEqual([]);
    expect(gates.exitCode).toBe(4);
  });

  it.each([
    ['refusal', 'refused'],
    ['pause_turn', 'incomplete'],
  ] as const)(
    'a %s answer whose text parses is failed(%s), not split, and the run is partial',
    async (stopReason, reason) => {
      const { report, gates, fake, entry } = await audit([
        answer([RISKY_FINDING], stopReason),
        answer([]),
      ]);
      expect(fake.calls).toHaveLength(2);
      expect(entry('risky/convert.js')).toMatchObject({ status: 'failed', reason });
      expect(entry('quiet/sum.js')).toMatchObject({ status: 'reviewed' });
      expect(report.findings).toEqual([]);
      expect(gates.exitCode).toBe(4);
    },
  );

  it('--allow-partial accepts a refused chunk beside a reviewed one, as any failed chunk', async () => {
    const { gates, entry } = await audit([answer([], 'refusal'), answer([])], {
      allowPartial: true,
      failOn: null,
    });
    expect(entry('risky/convert.js')).toMatchObject({ status: 'failed', reason: 'refused' });
    expect(gates.exitCode).toBe(0);
  });

  it('a repair answer cut off fails the chunk too', async () => {
    const { entry, fake } = await audit([
      { kind: 'answer', text: 'not json' },
      answer([RISKY_FINDING], 'refusal'),
      answer([]),
    ]);
    expect(fake.calls).toHaveLength(3);
    expect(entry('risky/convert.js')).toMatchObject({ status: 'failed', reason: 'refused' });
  });

  it('halves of the only chunk are reviewed as parts of a larger repository, not as the whole', async () => {
    const { fake } = await audit([CUT_AFTER_A_WHOLE_ARRAY, answer([RISKY_FINDING]), answer([])], {
      include: ['risky/**'],
    });
    expect(fake.calls).toHaveLength(3);
    const [whole, half] = fake.calls;
    expect(whole!.request.system).toContain('The data is the whole repository');
    expect(half!.request.system).toContain('one part of a larger repository');
  });

  it('a cut answer is never cached: the next run asks again; the halves it reviewed come from the cache', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-whole-answers-cache-'));
    const script = [CUT_AFTER_A_WHOLE_ARRAY, answer([RISKY_FINDING]), answer([])];
    await audit(script, { include: ['risky/**'], cacheDir });
    const again = await audit([CUT_AFTER_A_WHOLE_ARRAY], { include: ['risky/**'], cacheDir });
    expect(again.fake.calls).toHaveLength(1);
    expect(again.report.coverage.cacheHits).toBe(2);
    expect(again.gates.exitCode).toBe(3);
  });
});

describe('a reduce answer that did not end normally', () => {
  it('is not used: the findings are all listed in their own order, with no summary and the reason kept', async () => {
    const quietFinding = {
      ...RISKY_FINDING,
      title: 'Sum looks odd',
      severity: 'low',
      path: 'quiet/sum.js',
      line: 1,
      end_line: 1,
      evidence: QUIET_LINE,
    };
    const { report, gates } = await audit([
      answer([RISKY_FINDING]),
      answer([quietFinding]),
      {
        kind: 'answer',
        text: JSON.stringify({
          summary: 'Only the sum matters.',
          order: ['F1'],
          merge: [['F1', 'F2']],
        }),
        stopReason: 'max_tokens',
      },
    ]);
    expect(report.summary).toBeNull();
    expect(report.findings.map((item) => item.title).sort()).toEqual([
      'Command injection in convert',
      'Sum looks odd',
    ]);
    expect(report.summaryMissing?.reason).toBe('truncated');
    expect(report.summaryMissing?.detail).toMatch(/reduce answer was not used.*max_tokens/);
    expect(gates.exitCode).toBe(3);
  });
});
