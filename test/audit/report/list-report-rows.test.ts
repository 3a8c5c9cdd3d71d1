import { describe, expect, test } from 'vitest';
import {
  findingRuleId,
  listReportedHints,
  listReportRows,
} from '../../../src/audit/report/list-report-rows.js';
import { renderDetailedFindings } from '../../../src/audit/report/markdown/render-detailed-findings.js';
import type { AuditReport } from '../../../src/audit/types.js';
import { finding, hint, sampleEmptyReport } from '../../support/sample-report.js';

describe('listReportRows', () => {
  test('folds a hint that repeats a committed secret or a listed secret file, and keeps the rest', () => {
    const report: AuditReport = {
      ...sampleEmptyReport(),
      secrets: [
        { rule: 'aws-access-key-id', path: 'a.py', line: 3, isTracked: true },
        { rule: 'generic-password', path: 'b.py', line: 1, isTracked: false },
      ],
      secretFiles: [{ path: '.env', isTracked: false }],
      hints: [
        hint({ path: 'a.py', line: 3, category: 'hardcoded-credential', ruleId: 'cred' }),
        hint({ path: 'a.py', line: 4, category: 'hardcoded-credential', ruleId: 'cred' }),
        hint({ path: 'b.py', line: 1, category: 'hardcoded-credential', ruleId: 'cred' }),
        hint({ path: '.env', line: 1, category: 'secret-file', ruleId: 'file' }),
        hint({ path: 'a.py', line: 3, category: 'dynamic-code', ruleId: 'js/eval' }),
      ],
    };
    expect(
      listReportedHints(report).map((each) => `${each.ruleId}@${each.path}:${each.line}`),
    ).toEqual(['cred@a.py:4', 'cred@b.py:1', 'js/eval@a.py:3']);
    expect(
      listReportRows(report).map((row) => `${row.kind}:${row.ruleId}@${row.path}:${row.line}`),
    ).toEqual([
      'secret:oy/secret/aws-access-key-id@a.py:3',
      'hint:js/eval@a.py:3',
      'hint:cred@a.py:4',
      'hint:cred@b.py:1',
      'secret-file:oy/secret-file@.env:null',
    ]);
  });

  test('a model run lists its findings first, then secrets and prompt-injection markers only', () => {
    const report: AuditReport = {
      ...sampleEmptyReport('model'),
      findings: [finding({ title: 'Low', severity: 'low', path: 'z.ts', line: 1 })],
      secrets: [{ rule: 'npm-token', path: 'a.ts', line: 2, isTracked: true }],
      hints: [
        hint({
          path: 'a.ts',
          line: 1,
          category: 'prompt-injection',
          ruleId: 'prompt/x',
          severity: 'medium',
        }),
        hint({ path: 'a.ts', line: 5, category: 'dynamic-code', severity: 'critical' }),
      ],
    };
    expect(listReportRows(report).map((row) => [row.kind, row.severity, row.confidence])).toEqual([
      ['finding', 'low', 0.8],
      ['secret', 'high', null],
      ['hint', 'medium', null],
    ]);
  });

  test("findings keep the report's (reduce) order within a severity, grouped most severe first", () => {
    const report: AuditReport = {
      ...sampleEmptyReport('model'),
      findings: [
        finding({ title: 'ranked first', severity: 'high', path: 'z.ts', line: 90 }),
        finding({ title: 'low', severity: 'low', path: 'a.ts', line: 1 }),
        finding({ title: 'critical', severity: 'critical', path: 'y.ts', line: 5 }),
        finding({ title: 'ranked second', severity: 'high', path: 'a.ts', line: 1 }),
      ],
    };
    const titles = ['critical', 'ranked first', 'ranked second', 'low'];
    expect(listReportRows(report).map((row) => row.title)).toEqual(titles);
    const markdown = renderDetailedFindings(report);
    const positions = titles.map((title) => markdown.indexOf(title));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  test('a one-line finding has no end line', () => {
    const report: AuditReport = {
      ...sampleEmptyReport('model'),
      findings: [
        finding({ title: 'T', path: 'a.ts', line: 4, endLine: 4 }),
        finding({ title: 'U', path: 'b.ts', line: 4, endLine: 9 }),
      ],
    };
    expect(listReportRows(report).map((row) => row.endLine)).toEqual([null, 9]);
  });
});

describe('findingRuleId', () => {
  test.each([
    ['injection', 'oy/finding/injection'],
    ['Access Control', 'oy/finding/access-control'],
    ['  SQL / NoSQL injection!! ', 'oy/finding/sql-nosql-injection'],
    ['###', 'oy/finding/uncategorized'],
    ['', 'oy/finding/uncategorized'],
  ])('%j -> %s', (category, ruleId) => {
    expect(findingRuleId(category)).toBe(ruleId);
  });
});
