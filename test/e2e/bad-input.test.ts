import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/audit/types.js';
import { commitAll } from '../support/git-fixture.js';
import { OY_BIN, runOy } from '../support/run-oy.js';

/** Hostile trees through the built CLI: every bad file ends in a ledger status and the run succeeds. */
function buildHostileTree(root: string): void {
  writeFileSync(path.join(root, 'ok.js'), 'export const ok = 1;\n');
  const sparse = openSync(path.join(root, 'huge.log'), 'w');
  ftruncateSync(sparse, 2 * 1024 ** 3);
  closeSync(sparse);
  writeFileSync(
    path.join(root, 'image.ts'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a, 0x0a, 0xff, 0x00]),
  );
  symlinkSync('loop-b', path.join(root, 'loop-a'));
  symlinkSync('loop-a', path.join(root, 'loop-b'));
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  writeFileSync(Buffer.from(path.join(root, 'bad-\xff-name.js'), 'latin1'), 'export {};\n');
  writeFileSync(path.join(root, 'new\nline.js'), 'export const x = 2;\n');
  writeFileSync(path.join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  writeFileSync(path.join(root, 'empty.js'), '');
}

async function auditLedger(root: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const result = await runOy(['audit', '--manifest', 'ledger.json'], { cwd: root, env: extraEnv });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  const manifest = JSON.parse(readFileSync(path.join(root, 'ledger.json'), 'utf8')) as {
    files: LedgerEntry[];
  };
  return new Map(manifest.files.map((entry) => [entry.path, entry]));
}

const expectations: [string, string, string | undefined][] = [
  ['ok.js', 'reviewed', undefined],
  ['huge.log', 'skipped', 'too-large'],
  ['image.ts', 'skipped', 'unexpected-binary'],
  ['loop-a', 'skipped', 'symlink'],
  ['loop-b', 'skipped', 'symlink'],
  ['new\nline.js', 'reviewed', undefined],
  ['latin1.txt', 'skipped', 'invalid-utf8'],
  ['empty.js', 'skipped', 'empty'],
];

describe('bad input through the built CLI', () => {
  it('outside git: every hostile file ends in a ledger status', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'oy-bad-'));
    buildHostileTree(root);
    const ledger = await auditLedger(root);
    for (const [file, status, reason] of expectations) {
      expect(ledger.get(file), file).toMatchObject({ status, ...(reason ? { reason } : {}) });
    }
    expect(ledger.get('pipe')).toMatchObject({ status: 'skipped', reason: 'not-regular-file' });
    // A name that is not UTF-8 is read by its bytes and shown escaped.
    expect(ledger.get('bad-\\xFF-name.js')).toMatchObject({ status: 'reviewed' });
  });

  it('in a git work tree: the same hostile files end in ledger statuses', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'oy-bad-git-'));
    commitAll(root);
    buildHostileTree(root);
    const ledger = await auditLedger(root);
    for (const [file, status, reason] of expectations) {
      expect(ledger.get(file), file).toMatchObject({ status, ...(reason ? { reason } : {}) });
    }
    // git lists only regular files and links, so the FIFO is never a candidate and never opened.
    expect(ledger.has('pipe')).toBe(false);
  });

  it('an empty git repository gives a report with nothing reviewed', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'oy-empty-git-'));
    execFileSync('git', ['init', '-q'], { cwd: root });
    const ledger = await auditLedger(root);
    expect(ledger.size).toBe(0);
    expect(readFileSync(path.join(root, 'ISSUES.md'), 'utf8')).toMatch(/^# Audit Issues/);
  });

  it('an empty directory that is not a git repository gives a report too', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'oy-empty-'));
    const ledger = await auditLedger(root);
    expect(ledger.size).toBe(0);
  });

  const unprivileged =
    spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']).status === 0;
  it.runIf(unprivileged)(
    'a file the user cannot read is skipped as unreadable, not a crash',
    () => {
      const base = mkdtempSync(path.join(tmpdir(), 'oy-unreadable-'));
      chmodSync(base, 0o777);
      const root = path.join(base, 'ws');
      const home = path.join(base, 'home');
      mkdirSync(root, { mode: 0o777 });
      mkdirSync(home, { mode: 0o777 });
      chmodSync(root, 0o777);
      chmodSync(home, 0o777);
      writeFileSync(path.join(root, 'readable.js'), 'export const a = 1;\n', { mode: 0o644 });
      writeFileSync(path.join(root, 'secret-notes.txt'), 'private\n', { mode: 0o600 });
      const run = spawnSync(
        'setpriv',
        [
          '--reuid=65534',
          '--regid=65534',
          '--clear-groups',
          process.execPath,
          OY_BIN,
          'audit',
          '--manifest',
          'ledger.json',
        ],
        { cwd: root, env: { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' }, encoding: 'utf8' },
      );
      expect(run.status, run.stderr).toBe(0);
      const manifest = JSON.parse(readFileSync(path.join(root, 'ledger.json'), 'utf8')) as {
        files: LedgerEntry[];
      };
      const byPath = new Map(manifest.files.map((entry) => [entry.path, entry]));
      expect(byPath.get('readable.js')).toMatchObject({ status: 'reviewed' });
      expect(byPath.get('secret-notes.txt')).toMatchObject({
        status: 'skipped',
        reason: 'unreadable',
      });
    },
  );
});
