import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';

/**
 * Outputs are written where they were checked: the output folder is opened before any work, and a
 * folder swapped for a link to the outside while the map call is in flight (the fake holds the call
 * until the swap is done: no timer) cannot send the report, ledger or baseline there.
 */
let fake: FakeProviderServer;
let sandbox: string;
let repo: string;
let outside: string;
let cases = 0;

beforeEach(async () => {
  fake = await startFakeProvider();
  sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-folder-swap-')));
  repo = path.join(sandbox, 'repo');
  outside = path.join(sandbox, 'outside');
  mkdirSync(path.join(repo, 'src'), { recursive: true });
  mkdirSync(path.join(repo, 'reports'));
  mkdirSync(outside);
  // Fresh per run, so a report found anywhere is this run's.
  const marker = `value_${randomBytes(6).toString('hex')}`;
  writeFileSync(path.join(repo, 'src', 'app.js'), `export const ${marker} = 1;\n`);
  writeFileSync(path.join(repo, '.gitignore'), 'reports/\nreports.real/\n');
  commitAll(repo);
});

afterEach(async () => {
  await fake.close();
  cases++;
});

afterAll(() => console.log(`output folder swap: ${cases} cases`));

const OUTPUT_ARGS = [
  ...['--out', 'reports/ISSUES.md', '--manifest', 'reports/ledger.json'],
  ...['--write-baseline', 'reports/baseline.json'],
];

function audit(args: string[]) {
  return runOy(['audit', '--model', 'anthropic::claude-haiku-4-5', '--no-cache', ...args], {
    cwd: repo,
    env: fakeProviderEnv(fake),
  });
}

/** Runs the audit with its map call held until `swap` has changed the disk. */
async function auditSwapping(args: string[], swap: () => void) {
  fake.enqueue(reply.text(JSON.stringify({ findings: [] })));
  const release = fake.hold();
  const running = audit(args);
  await fake.whenRequested(1);
  swap();
  release();
  return running;
}

/** Every file under the folder outside the workspace: the canary is that it stays empty. */
function outsideFiles(): string[] {
  return readdirSync(outside, { recursive: true }).map(String);
}

describe('audit: outputs are written where they were checked', () => {
  it('a folder swapped for a link to the outside mid-run: report, ledger and baseline land in the folder checked, none outside', async () => {
    const result = await auditSwapping(OUTPUT_ARGS, () => {
      renameSync(path.join(repo, 'reports'), path.join(repo, 'reports.real'));
      symlinkSync(outside, path.join(repo, 'reports'));
    });
    expect(result.code, result.stderr).toBe(0);
    expect(outsideFiles()).toEqual([]);
    expect(readdirSync(path.join(repo, 'reports.real')).sort()).toEqual([
      'ISSUES.md',
      'baseline.json',
      'ledger.json',
    ]);
    expect(readFileSync(path.join(repo, 'reports.real', 'ISSUES.md'), 'utf8')).toMatch(
      /^# Audit Issues/,
    );
    fake.assertDone();
  });

  it('a folder still to be made, planted as a link to the outside mid-run: nothing written, exit 1 with the reason', async () => {
    const result = await auditSwapping(['--out', 'reports/new/ISSUES.md'], () => {
      symlinkSync(outside, path.join(repo, 'reports', 'new'));
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(
      /^error: --out .*ISSUES\.md was not written: it passes through a link/m,
    );
    expect(outsideFiles()).toEqual([]);
  });

  it('a parent folder swapped mid-run: the report still lands in the folder checked', async () => {
    mkdirSync(path.join(repo, 'reports', 'deep'));
    const result = await auditSwapping(['--out', 'reports/deep/ISSUES.md'], () => {
      renameSync(path.join(repo, 'reports'), path.join(repo, 'reports.real'));
      mkdirSync(path.join(outside, 'deep'));
      symlinkSync(outside, path.join(repo, 'reports'));
    });
    expect(result.code, result.stderr).toBe(0);
    expect(outsideFiles()).toEqual(['deep']);
    expect(existsSync(path.join(repo, 'reports.real', 'deep', 'ISSUES.md'))).toBe(true);
  });

  it('control: with no swap, the files land at their paths', async () => {
    const result = await auditSwapping(OUTPUT_ARGS, () => undefined);
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(path.join(repo, 'reports')).sort()).toEqual([
      'ISSUES.md',
      'baseline.json',
      'ledger.json',
    ]);
    expect(outsideFiles()).toEqual([]);
  });
});
