import { cpSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditReport, LedgerEntry } from '../../src/audit/types.js';
import { addSchemaFormats } from '../support/add-schema-formats.js';
import { commitAll } from '../support/git-fixture.js';
import { normalizeReport } from '../support/normalize-report.js';
import { PROJECT_ROOT, runOy } from '../support/run-oy.js';
import { validateSarif } from '../support/validate-sarif.js';

const FIXTURE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'repos', 'webapp');
const SNAPSHOTS = path.join(PROJECT_ROOT, 'snapshots', 'e2e', 'offline-report');
const version = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
let repo: string;

/** A committed copy of the fixture, so tests that compare runs do not see each other's outputs. */
function freshRepo(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-webapp-')));
  cpSync(FIXTURE, dir, { recursive: true });
  commitAll(dir);
  return dir;
}

beforeEach(() => {
  repo = freshRepo();
});

async function audit(format: string, out: string) {
  const result = await runOy(
    ['audit', '--format', format, '--out', out, '--manifest', `${out}.ledger.json`],
    { cwd: repo },
  );
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe(`${out}\n`);
  return readFileSync(path.join(repo, out), 'utf8');
}

describe('offline report of a fixture repository, through the built CLI', () => {
  it('writes the Markdown report', async () => {
    const markdown = await audit('markdown', 'ISSUES.md');
    await expect(normalizeReport(markdown, repo, version)).toMatchFileSnapshot(
      path.join(SNAPSHOTS, 'webapp.md'),
    );
    expect(markdown).toContain('> Generated with oy');
    for (const section of [
      '## Findings summary',
      '## Detailed findings',
      '## Unverified',
      '## Secrets',
      '## Coverage',
      '## Method',
    ]) {
      expect(markdown).toContain(section);
    }
  });

  it('writes SARIF that validates against the SARIF 2.1.0 schema', async () => {
    const sarif = await audit('sarif', 'oy.sarif');
    expect(validateSarif(JSON.parse(sarif))).toEqual([]);
    await expect(normalizeReport(sarif, repo, version)).toMatchFileSnapshot(
      path.join(SNAPSHOTS, 'webapp.sarif.json'),
    );
  });

  it('writes JSON that validates against the documented report schema', async () => {
    const json = await audit('json', 'oy-audit.json');
    const schema = JSON.parse(
      readFileSync(
        path.join(PROJECT_ROOT, 'src', 'audit', 'report', 'audit-report.schema.json'),
        'utf8',
      ),
    ) as object;
    const ajv = new Ajv({ allErrors: true });
    addSchemaFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(JSON.parse(json)), JSON.stringify(validate.errors)).toBe(true);
    await expect(normalizeReport(json, repo, version)).toMatchFileSnapshot(
      path.join(SNAPSHOTS, 'webapp.json'),
    );

    const report = JSON.parse(json) as AuditReport;
    const ruleIds = new Set(report.hints.map((hint) => hint.ruleId));
    const categories = new Set(report.hints.map((hint) => hint.category));
    for (const category of [
      'command-execution',
      'sql-injection',
      'path-traversal',
      'unsafe-deserialization',
      'weak-crypto',
      'prompt-injection',
      'ci-workflow',
    ]) {
      expect(categories, category).toContain(category);
    }
    expect(ruleIds.size).toBeGreaterThan(5);
    expect(report.secretFiles).toEqual([{ path: '.env', isTracked: true }]);
    expect(report.mode).toBe('offline');
  });

  it('records every candidate in the ledger, and its own outputs as oy-output', async () => {
    await audit('markdown', 'ISSUES.md');
    await audit('markdown', 'ISSUES.md');
    const ledger = JSON.parse(readFileSync(path.join(repo, 'ISSUES.md.ledger.json'), 'utf8')) as {
      files: LedgerEntry[];
    };
    const byPath = new Map(ledger.files.map((entry) => [entry.path, entry]));
    expect(byPath.get('.env')).toMatchObject({ status: 'skipped', reason: 'secret-file' });
    expect(byPath.get('src/routes/files.js')).toMatchObject({ status: 'reviewed' });
    expect(byPath.get('ISSUES.md')).toMatchObject({ status: 'skipped', reason: 'oy-output' });
  });

  it('gives the same report on a second run, served from the scan cache', async () => {
    // Reports go to an ignored folder, so the first run's output is not a new file for the second.
    writeFileSync(path.join(repo, '.gitignore'), 'reports/\n');
    commitAll(repo, 'ignore reports');
    const first = normalizeReport(await audit('json', 'reports/first.json'), repo, version);
    const second = normalizeReport(await audit('json', 'reports/second.json'), repo, version);
    const strip = (text: string) =>
      text
        .replace(/"command": "[^"]*"/, '')
        .replaceAll(/reports\/(first|second)\.json/g, 'reports/<out>');
    expect(JSON.parse(second).coverage.filesReviewed).toBeGreaterThan(5);
    expect(strip(second)).toBe(strip(first));
  });

  it('narrows to changed files with --diff', async () => {
    writeFileSync(
      path.join(repo, 'src', 'session.js'),
      readFileSync(path.join(repo, 'src', 'session.js'), 'utf8') + '// touched\n',
    );
    const result = await runOy(
      ['audit', '--diff', 'HEAD', '--format', 'json', '--out', 'diff.json'],
      { cwd: repo },
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(readFileSync(path.join(repo, 'diff.json'), 'utf8')) as AuditReport;
    const reviewed = report.coverage.ledger
      .filter((entry) => entry.status === 'reviewed')
      .map((entry) => entry.path);
    expect(reviewed).toEqual(['src/session.js']);
    expect(report.coverage.skippedByReason.unchanged).toBeGreaterThan(3);
  });

  it('prints the plan with --dry-run and writes nothing', async () => {
    const result = await runOy(['audit', '--dry-run', '--out', 'never.md'], { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Audit plan for /);
    expect(result.stdout).toMatch(
      /Chunks: 1 \(budget 64000 provider tokens = 49230 o200k_base tokens at headroom 1\.3\)/,
    );
    expect(result.stdout).toMatch(/Model calls: 1 map, 0 reduce/);
    expect(result.stdout).toMatch(/skipped\(secret-file\)\s+1/);
    expect(() => readFileSync(path.join(repo, 'never.md'))).toThrow();
  });
});
