import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditReport, LedgerEntry } from '../../src/audit/types.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';
import { validateSarif } from '../support/validate-sarif.js';

/**
 * A file whose name is not UTF-8 (bytes 0xff 0xfe) is read, scanned and reviewed, and shown escaped
 * (`\xFF\xFE`) in every output: no raw invalid byte reaches a report, the ledger or stderr.
 */
const NAME = Buffer.from([0xff, 0xfe]);
const SHOWN = '\\xFF\\xFE';
const SYSTEM_LINE = 'os.system(input())';

let fake: FakeProviderServer;
let home: string;

beforeEach(async () => {
  fake = await startFakeProvider();
  home = mkdtempSync(path.join(tmpdir(), 'oy-names-home-'));
});
afterEach(async () => {
  await fake.close();
});

/** A fresh token per run, so no fixture or cache can stand in for the scan. */
function makeToken(): string {
  return `ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
}

function makeRepository(isGit: boolean, token: string): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-names-')));
  const text = `#!/usr/bin/env python3\nimport os\n${SYSTEM_LINE}\ntoken = "${token}"\n`;
  writeFileSync(Buffer.concat([Buffer.from(`${root}/`), NAME]), text);
  writeFileSync(path.join(root, '.gitignore'), 'out/\n');
  if (isGit) commitAll(root);
  return root;
}

function audit(root: string, args: string[]) {
  return runOy(['audit', '--fail-on', 'high', '--manifest', 'out/ledger.json', ...args], {
    cwd: root,
    env: {
      OY_CONFIG: path.join(home, 'none.json'),
      XDG_CACHE_HOME: path.join(home, 'cache'),
      XDG_STATE_HOME: path.join(home, 'state'),
    },
  });
}

/** Every output file's bytes are valid UTF-8 and hold neither the raw name nor the token. */
function expectCleanOutputs(root: string, token: string): void {
  for (const name of readdirSync(path.join(root, 'out'))) {
    const bytes = readFileSync(path.join(root, 'out', name));
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes), name).not.toThrow();
    expect(bytes.includes(NAME), name).toBe(false);
    expect(bytes.includes(0xff), name).toBe(false);
    expect(bytes.toString('utf8'), name).not.toContain(token);
  }
}

describe.each([
  ['a git work tree', true],
  ['a plain folder', false],
])('a file whose name is not UTF-8, in %s', (_label, isGit) => {
  it('is read and scanned offline: its token is found (and gates when committed), its hint listed, its name escaped everywhere', async () => {
    const token = makeToken();
    const root = makeRepository(isGit, token);
    const runs = [
      ['--offline', '--format', 'json', '--out', 'out/r.json'],
      ['--offline', '--out', 'out/r.md'],
      ['--offline', '--format', 'sarif', '--out', 'out/r.sarif'],
    ];
    // Outside git nothing is committed: the token is a hard-coded credential hint, which does not
    // gate, exactly as for the same file under a valid name (the control).
    const control = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-names-control-')));
    writeFileSync(
      path.join(control, 'tool'),
      readFileSync(Buffer.concat([Buffer.from(`${root}/`), NAME])),
    );
    if (isGit) commitAll(control);
    const controlRun = await audit(control, ['--offline', '--out', 'out/r.md']);
    expect(controlRun.code, controlRun.stderr).toBe(isGit ? 3 : 0);
    for (const args of runs) {
      const result = await audit(root, args);
      expect(result.code, result.stderr).toBe(controlRun.code);
      if (isGit) {
        expect(result.stderr).toContain(`${SHOWN}:4  Committed secret (github-token)`);
        expect(result.stderr).toMatch(/gate: `--fail-on high`/);
      } else {
        expect(result.stderr).toContain(`${SHOWN}:4  Hard-coded credential (github-token)`);
      }
      expect(result.stderr).toContain(`${SHOWN}:3  Command string run through a shell`);
      expect(result.stderr + result.stdout).not.toContain(token);
      expect(result.stderr + result.stdout).not.toContain('\uFFFD');
    }
    const report = JSON.parse(readFileSync(path.join(root, 'out/r.json'), 'utf8')) as AuditReport;
    if (isGit) expect(report.secrets).toEqual([expect.objectContaining({ path: SHOWN, line: 4 })]);
    else expect(report.hints.some((hint) => hint.path === SHOWN && hint.line === 4)).toBe(true);
    expect(report.hints.some((hint) => hint.path === SHOWN && hint.line === 3)).toBe(true);
    const ledger = JSON.parse(readFileSync(path.join(root, 'out/ledger.json'), 'utf8')) as {
      files: LedgerEntry[];
    };
    expect(ledger.files.find((entry) => entry.path === SHOWN)).toMatchObject({
      status: 'reviewed',
    });
    expect(readFileSync(path.join(root, 'out/r.md'), 'utf8')).toContain('\\\\xFF\\\\xFE');
    const sarif = JSON.parse(readFileSync(path.join(root, 'out/r.sarif'), 'utf8')) as {
      runs: {
        results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
      }[];
    };
    expect(validateSarif(sarif)).toEqual([]);
    const uris = (sarif.runs[0]?.results ?? []).flatMap((item) =>
      item.locations.map((where) => where.physicalLocation.artifactLocation.uri),
    );
    expect(uris).toContain('%5CxFF%5CxFE');
    // Every uri is a valid percent-encoded URI reference.
    for (const uri of uris) expect(() => decodeURIComponent(uri)).not.toThrow();
    expectCleanOutputs(root, token);
  });

  it('is reviewed: a finding the model gives by the escaped name is verified against its text', async () => {
    const token = makeToken();
    const root = makeRepository(isGit, token);
    const model = `local-${new URL(fake.url).port}::house-model`;
    const finding = {
      title: 'Shell command from user input',
      severity: 'critical',
      category: 'command-injection',
      path: SHOWN,
      line: 3,
      end_line: 3,
      evidence: SYSTEM_LINE,
      impact: 'Runs any command',
      preconditions: 'The caller types the input',
      fix: 'Use subprocess.run with a list',
      confidence: 0.9,
    };
    fake.enqueue({ kind: 'answer', text: JSON.stringify({ findings: [finding] }) });
    const result = await audit(root, ['--model', model, '--format', 'json', '--out', 'out/r.json']);
    expect(result.code, result.stderr).toBe(3);
    fake.assertDone();
    const prompt = JSON.stringify(fake.modelCalls[0]?.body ?? '');
    expect(prompt).toContain(SHOWN.replace(/\\/g, '\\\\'));
    expect(prompt).not.toContain(token);
    const report = JSON.parse(readFileSync(path.join(root, 'out/r.json'), 'utf8')) as AuditReport;
    expect(report.findings).toEqual([
      expect.objectContaining({ path: SHOWN, line: 3, title: 'Shell command from user input' }),
    ]);
    expect(report.unverified).toEqual([]);
    expectCleanOutputs(root, token);
  });
});
