import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { BEL, ESC, findRawControls, makeHostileText } from '../support/hostile-terminal-text.js';
import { runOy } from '../support/run-oy.js';

/**
 * `oy run` and `oy audit` through the built CLI with hostile data: a model that proposes a command
 * whose argument carries escapes and answers with OSC 52, a repository whose file names carry ESC,
 * BEL and CR. Nothing a terminal would act on reaches stdout or stderr from the data.
 */
const MODEL = 'anthropic::claude-haiku-4-5';

let fake: FakeProviderServer;
let workspace: string;

beforeEach(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-term-e2e-')));
});
afterEach(async () => {
  await fake.close();
  rmSync(workspace, { recursive: true, force: true });
});

/** A repository whose every file name carries control characters, in a folder whose name does too. */
function makeHostileRepository(): { root: string; names: string[] } {
  const root = path.join(workspace, `repo-${ESC}]0;title${BEL}-`);
  mkdirSync(root);
  const names = [`a${ESC}[2K${ESC}[1Gb.py`, `bell${BEL}.py`, `z\rname.py`, `del\u007f\u202e.py`];
  names.forEach((name, index) => writeFileSync(path.join(root, name), `value_${index} = 1\n`));
  return { root, names };
}

describe('terminal safety through the CLI', () => {
  it('oy run: a hostile command argument and OSC 52 in the answer print inertly', async () => {
    const hostile = makeHostileText();
    fake.enqueue(
      reply.toolCall('bash', { command: `touch PWNED #${hostile.text}` }),
      reply.text(`Done ${hostile.text} end`),
    );
    // ask mode with nobody to answer: the command is denied, and its progress line is printed.
    const result = await runOy(['run', '--model', MODEL, 'do it'], {
      cwd: workspace,
      env: fakeProviderEnv(fake),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(findRawControls(result.stdout)).toEqual([]);
    expect(findRawControls(result.stderr)).toEqual([]);
    expect(result.stdout).toContain(`Done ${hostile.canary} #^[[2K^[[1G$ npm test^[]52;c;`);
    // The progress line keeps to 80 columns: its head, then the escapes among what it counts as not shown.
    expect(result.stderr).toContain(`bash touch PWNED #${hostile.canary} #⟨`);
    expect(result.stderr).toMatch(/⟨… [\d,]+ characters not shown …⟩.*⟨\^\[\[0m⟩ denied/u);
    expect(existsSync(path.join(workspace, 'PWNED'))).toBe(false);
    fake.assertDone();
  });

  it('oy run --json: the events stay JSON with every control escaped', async () => {
    const hostile = makeHostileText();
    fake.enqueue(reply.text(`Done ${hostile.text}`));
    const result = await runOy(['run', '--json', '--model', MODEL, 'do it'], {
      cwd: workspace,
      env: fakeProviderEnv(fake),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(findRawControls(result.stdout + result.stderr)).toEqual([]);
    const lines = result.stdout.trimEnd().split('\n');
    const texts = lines
      .map((line) => JSON.parse(line) as { type: string; text?: string })
      .filter((event) => event.type === 'text_delta')
      .map((event) => event.text)
      .join('');
    expect(texts).toBe(`Done ${hostile.text}`);
  });

  it("oy run: a provider's error message with escapes is quoted inertly", async () => {
    const hostile = makeHostileText();
    fake.enqueue({ kind: 'error', status: 400, message: `bad request ${hostile.text}` });
    const result = await runOy(['run', '--model', MODEL, 'do it'], {
      cwd: workspace,
      env: fakeProviderEnv(fake),
    });
    expect(result.code).not.toBe(0);
    expect(findRawControls(result.stdout + result.stderr)).toEqual([]);
    expect(result.stderr).toContain(`bad request ${hostile.canary} #^[[2K^[[1G$ npm test`);
  });

  it('oy audit --dry-run: file and folder names with ESC, BEL and CR print inertly', async () => {
    const { root } = makeHostileRepository();
    const result = await runOy(['audit', root, '--dry-run', '--offline'], { cwd: workspace });
    expect(result.code, result.stderr).toBe(0);
    expect(findRawControls(result.stdout)).toEqual([]);
    expect(findRawControls(result.stderr)).toEqual([]);
    expect(result.stdout).toContain('Audit plan for ');
    expect(result.stdout).toContain('repo-^[]0;title^G-');
    expect(result.stdout).toMatch(/4 files .* a\^\[\[2K\^\[\[1Gb\.py \.\. z\^Mname\.py/u);
  });

  it('oy audit --dry-run --json and the offline report run print inertly', async () => {
    const { root, names } = makeHostileRepository();
    const json = await runOy(['audit', root, '--dry-run', '--offline', '--json'], {
      cwd: workspace,
    });
    expect(json.code, json.stderr).toBe(0);
    expect(findRawControls(json.stdout + json.stderr)).toEqual([]);
    const plan = JSON.parse(json.stdout) as { chunks: { firstPath: string; lastPath: string }[] };
    expect([plan.chunks[0]!.firstPath, plan.chunks[0]!.lastPath]).toEqual([names[0], names[2]]);

    const report = await runOy(['audit', root, '--offline'], { cwd: workspace });
    expect(report.code, report.stderr).toBe(0);
    expect(findRawControls(report.stdout + report.stderr)).toEqual([]);
    expect(report.stdout).toContain('repo-^[]0;title^G-');
  });

  it('control: the same data printed raw is caught by the check', () => {
    const { names } = makeHostileRepository();
    const hostile = makeHostileText();
    expect(findRawControls(names.join('\n'))).toHaveLength(6);
    expect(findRawControls(`Done ${hostile.text}`).length).toBeGreaterThan(0);
  });
});

console.log('terminal safety through the CLI: 6 cases');
