import { describe, expect, test } from 'vitest';
import { listReportRows } from '../../../src/audit/report/list-report-rows.js';
import { renderMarkdown } from '../../../src/audit/report/render-markdown.js';
import { renderSarif } from '../../../src/audit/report/render-sarif.js';
import type { AuditReport, LedgerEntry } from '../../../src/audit/types.js';
import { sampleEmptyReport } from '../../support/sample-report.js';
import { validateSarif } from '../../support/validate-sarif.js';

/** What the audited repository's own `.oyignore` and `.oy/config.json` did shows in every format. */
interface SarifShape {
  runs: {
    results: { ruleId: string; level: string; message: { text: string } }[];
    invocations: { toolExecutionNotifications: { message: { text: string } }[] }[];
  }[];
}

function reportWith(mode: AuditReport['mode'], leftOut: LedgerEntry[]): AuditReport {
  const base = sampleEmptyReport(mode);
  const ledger = [...base.coverage.ledger, ...leftOut];
  const skippedByReason: Record<string, number> = {};
  for (const entry of leftOut) {
    skippedByReason[entry.reason ?? ''] = (skippedByReason[entry.reason ?? ''] ?? 0) + 1;
  }
  return {
    ...base,
    configChanges: [{ path: '.oy/config.json' }, { path: '.oyignore' }],
    coverage: { ...base.coverage, filesSkipped: leftOut.length, skippedByReason, ledger },
  };
}

const LEFT_OUT: LedgerEntry[] = [
  { path: 'src/auth.ts', status: 'skipped', reason: 'repository-ignore', detail: '.oyignore' },
  {
    path: 'src/admin.ts',
    status: 'skipped',
    reason: 'project-exclude',
    detail: 'audit.exclude in .oy/config.json',
  },
  { path: 'tmp/scratch.ts', status: 'skipped', reason: 'excluded' },
];

describe.each(['offline', 'model'] as const)('%s report', (mode) => {
  const report = reportWith(mode, LEFT_OUT);

  test('lists each configuration change as a medium result', () => {
    const rows = listReportRows(report).filter((row) => row.kind === 'config-change');
    expect(rows.map((row) => [row.ruleId, row.severity, row.path])).toEqual([
      ['oy/repo-config/changed', 'medium', '.oy/config.json'],
      ['oy/repo-config/changed', 'medium', '.oyignore'],
    ]);
  });

  test('Markdown: in the summary, and the left-out files under Coverage', () => {
    const markdown = renderMarkdown(report);
    expect(markdown).toContain(
      "| medium | The audited change edits the audit's own configuration (.oyignore) | application code | 1 | .oyignore |",
    );
    const leftOut =
      markdown.split('### Not reviewed because of what the repository holds')[1] ?? '';
    expect(leftOut).toContain('| src/auth.ts | repository-ignore | .oyignore |');
    expect(leftOut).toContain(
      '| src/admin.ts | project-exclude | audit.exclude in .oy/config.json |',
    );
    // The user's own --exclude stays a quiet count.
    expect(markdown).not.toContain('tmp/scratch.ts');
  });

  test('SARIF: a result per change and a notification per left-out file; the log is valid', () => {
    const log = JSON.parse(renderSarif(report)) as SarifShape;
    expect(validateSarif(log)).toEqual([]);
    const run = log.runs[0];
    expect(
      run?.results.filter((result) => result.ruleId === 'oy/repo-config/changed'),
    ).toHaveLength(2);
    const notes = run?.invocations[0]?.toolExecutionNotifications.map((note) => note.message.text);
    expect(notes).toEqual([
      'Not reviewed (project-exclude): audit.exclude in .oy/config.json',
      'Not reviewed (repository-ignore): .oyignore',
    ]);
  });
});

test('control: a report without changes or left-out files shows neither', () => {
  const report = sampleEmptyReport();
  expect(listReportRows(report)).toEqual([]);
  expect(renderMarkdown(report)).not.toContain('Not reviewed because of what the repository holds');
});

test('SARIF caps the left-out notifications and says how many more there are', () => {
  const many: LedgerEntry[] = Array.from({ length: 250 }, (_, index) => ({
    path: `src/file-${String(index).padStart(3, '0')}.ts`,
    status: 'skipped',
    reason: 'repository-ignore',
    detail: '.oyignore',
  }));
  const log = JSON.parse(renderSarif(reportWith('offline', many))) as SarifShape;
  const notes = log.runs[0]?.invocations[0]?.toolExecutionNotifications ?? [];
  expect(notes).toHaveLength(201);
  expect(notes.at(-1)?.message.text).toMatch(
    /^50 more files not reviewed because of what the repository holds/,
  );
});
