import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/audit/types.js';
import { commitAll } from '../support/git-fixture.js';
import { PROJECT_ROOT, runOy } from '../support/run-oy.js';
import { validateSarif } from '../support/validate-sarif.js';

/** oy's outputs: recognised by content and never audited, named by extension, never clobbering a foreign file. */
const FIXTURE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'repos', 'webapp');
let repo: string;
let cases = 0;

beforeEach(() => {
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-outputs-')));
  cpSync(FIXTURE, repo, { recursive: true });
  commitAll(repo);
  cases++;
});

afterAll(() => console.log(`audit outputs: ${cases} cases`));

function audit(args: string[]) {
  return runOy(['audit', '--offline', ...args], { cwd: repo });
}

function read(file: string): string {
  return readFileSync(path.join(repo, file), 'utf8');
}

describe('audit outputs', () => {
  it('three runs in a row in different formats give the same hint count', async () => {
    const counts: number[] = [];
    for (const flags of [
      ['--format', 'sarif'],
      ['--format', 'json', '--manifest', 'ledger.json'],
      [],
      // The reports under names oy would not choose are still recognised by their content.
      ['--out', 'renamed.txt', '--manifest', 'other.txt'],
    ]) {
      const result = await audit(['--json', ...flags]);
      expect(result.code, result.stderr).toBe(0);
      counts.push((JSON.parse(result.stdout) as { hints: number }).hints);
    }
    expect(new Set(counts).size).toBe(1);
    const ledger = JSON.parse(read('other.txt')) as { files: LedgerEntry[] };
    const skipped = ledger.files
      .filter((entry) => entry.status === 'skipped' && entry.reason === 'oy-output')
      .map((entry) => entry.path);
    expect(skipped).toEqual(
      expect.arrayContaining(['ISSUES.md', 'ledger.json', 'oy-audit.json', 'oy.sarif']),
    );
  });

  it('control: a file that only looks like a report by name is audited', async () => {
    writeFileSync(path.join(repo, 'oy.sarif'), '{"runs": []}\n');
    writeFileSync(path.join(repo, 'other.txt'), '# Audit Issues\n\nhand-written\n');
    await audit(['--out', 'x.md', '--manifest', 'ledger.json']);
    const ledger = JSON.parse(read('ledger.json')) as { files: LedgerEntry[] };
    const statuses = ledger.files.filter((entry) => ['oy.sarif', 'other.txt'].includes(entry.path));
    expect(statuses.map((entry) => entry.status)).toEqual(['reviewed', 'reviewed']);
  });

  it.each([
    ['r.sarif', '"version": "2.1.0"'],
    ['r.sarif.json', '"version": "2.1.0"'],
    ['r.json', '"schemaVersion": 1'],
    ['r.md', '# Audit Issues'],
  ])('--out %s picks the format from the extension', async (out, marker) => {
    const result = await audit(['--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(read(out)).toContain(marker);
  });

  it('--format that contradicts --out is a usage error with a hint', async () => {
    const result = await audit(['--format', 'markdown', '--out', 'r.sarif']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --format markdown does not match --out r\.sarif/m);
    expect(result.stderr).toMatch(/^hint: /m);
  });

  it('a hand-written ISSUES.md is not overwritten without --force', async () => {
    writeFileSync(path.join(repo, 'ISSUES.md'), '# Our issues\n\n- keep me\n');
    const refused = await audit([]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: --out would overwrite .*ISSUES\.md/m);
    expect(refused.stderr).toMatch(/^hint: .*--force/m);
    expect(read('ISSUES.md')).toContain('keep me');
    const forced = await audit(['--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(read('ISSUES.md')).not.toContain('keep me');
    // oy's own report is replaced without --force.
    const again = await audit([]);
    expect(again.code, again.stderr).toBe(0);
  });

  it('--write-baseline may write under .oy/, and the baseline reads back', async () => {
    const written = await audit(['--write-baseline', '.oy/baseline.json']);
    expect(written.code, written.stderr).toBe(0);
    expect(JSON.parse(read('.oy/baseline.json'))).toMatchObject({ tool: 'oy' });
    const gated = await audit(['--baseline', '.oy/baseline.json', '--fail-on', 'high']);
    expect(gated.code, gated.stderr).toBe(0);
  });

  it('--out - writes the report, and nothing else, to stdout in every format', async () => {
    const before = readdirSync(repo).sort();
    const [markdown, json, sarif, refused] = await Promise.all([
      audit(['--out', '-']),
      audit(['--out', '-', '--format', 'json']),
      audit(['--out', '-', '--format', 'sarif']),
      audit(['--out', '-', '--json']),
    ]);
    for (const run of [markdown, json, sarif]) expect(run.code, run.stderr).toBe(0);
    expect(markdown.stdout).toMatch(/^# Audit Issues\n/);
    expect((JSON.parse(json.stdout) as { schemaVersion: number }).schemaVersion).toBe(1);
    expect(validateSarif(JSON.parse(sarif.stdout))).toEqual([]);
    // Progress and notices stay on stderr, and no report file was written.
    expect(markdown.stderr).toMatch(/notice: no model configured|writing report/);
    expect(readdirSync(repo).sort()).toEqual(before);
    // --json would mix its summary into the report.
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^error: --json and --out - would both write to stdout\nhint: /m,
    );
  });
});

describe('SARIF locations from a subfolder', () => {
  it('are relative to the git top, so code scanning finds the file whatever folder was audited', async () => {
    const top = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-sarif-top-')));
    const sub = path.join(top, 'svc', 'api');
    cpSync(FIXTURE, sub, { recursive: true });
    writeFileSync(path.join(top, 'README.md'), '# top\n');
    commitAll(top);
    const result = await runOy(['audit', '--offline', '--format', 'sarif', '--out', '-'], {
      cwd: sub,
    });
    expect(result.code, result.stderr).toBe(0);
    const sarif = JSON.parse(result.stdout) as {
      runs: {
        results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
      }[];
    };
    expect(validateSarif(sarif)).toEqual([]);
    const uris = sarif.runs[0]!.results.map(
      (item) => item.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(uris.length).toBeGreaterThan(0);
    for (const uri of uris) expect(uri).toMatch(/^svc\/api\//);
    // Every location names a file that exists at that path below the top.
    for (const uri of uris)
      expect(readdirSync(path.dirname(path.join(top, decodeURI(uri))))).toContain(
        path.basename(decodeURI(uri)),
      );
    // The same folder audited as the top keeps its paths as they are.
    const atTop = await runOy(['audit', '--offline', '--format', 'sarif', '--out', '-'], {
      cwd: repo,
    });
    const topUris = (JSON.parse(atTop.stdout) as typeof sarif).runs[0]!.results.map(
      (item) => item.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(topUris.some((uri) => uri.startsWith('svc/'))).toBe(false);
    expect(topUris.sort()).toEqual(uris.map((uri) => uri.slice('svc/api/'.length)).sort());
  });
});
