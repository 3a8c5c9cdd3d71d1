import { describe, expect, test } from 'vitest';
import { coverageRatio, type GateCoverage } from '../../../src/audit/gates/coverage-ratio.js';
import { evaluateGates, type GateInput } from '../../../src/audit/gates/evaluate-gates.js';
import type { Finding } from '../../../src/audit/types.js';
import { finding, sampleModelReport } from '../../support/sample-report.js';

const FULL: GateCoverage = { filesReviewed: 10, filesFailed: 0, skippedByReason: {} };

const FULL_INPUT: GateInput = {
  findings: [],
  configChanges: [],
  secrets: [],
  failOn: 'info',
  minCoverage: null,
  coverage: FULL,
  isPartial: false,
  allowPartial: false,
};

function gates(fields: Partial<GateInput>): ReturnType<typeof evaluateGates> {
  return evaluateGates({
    findings: [],
    configChanges: [],
    secrets: [],
    failOn: null,
    minCoverage: null,
    coverage: FULL,
    isPartial: false,
    allowPartial: false,
    ...fields,
  });
}

const FINDINGS: Finding[] = [
  finding({ title: 'Low one', path: 'b.ts', line: 2, severity: 'low' }),
  finding({ title: 'Open redirect', path: 'a.ts', line: 7, endLine: 9, severity: 'high' }),
  finding({ title: 'Medium one', path: 'c.ts', line: 1, severity: 'medium' }),
  finding({ title: 'Another high', path: 'a.ts', line: 30, severity: 'high' }),
];

describe('evaluateGates', () => {
  test('no gates set: exit 0 whatever was found', () => {
    expect(gates({ findings: FINDINGS })).toEqual({ exitCode: 0, reasons: [] });
  });

  test('no findings with --fail-on: exit 0', () => {
    expect(gates({ failOn: 'info' })).toEqual({ exitCode: 0, reasons: [] });
  });

  test('--fail-on high with high findings: exit 3 naming the count and the worst', () => {
    expect(gates({ findings: FINDINGS, failOn: 'high' })).toEqual({
      exitCode: 3,
      reasons: [
        '`--fail-on high`: 2 findings at or above high; worst: high "Open redirect" at a.ts:7-9',
      ],
    });
  });

  test('--fail-on counts findings at or above, and one is singular', () => {
    expect(gates({ findings: FINDINGS, failOn: 'medium' }).reasons[0]).toMatch(
      /: 3 findings at or above medium/,
    );
    const one = gates({ findings: [FINDINGS[2] as Finding], failOn: 'medium' });
    expect(one.reasons[0]).toMatch(
      /: 1 finding at or above medium; worst: medium "Medium one" at c\.ts:1$/,
    );
  });

  test('--fail-on critical with only high findings: exit 0', () => {
    expect(gates({ findings: FINDINGS, failOn: 'critical' })).toEqual({ exitCode: 0, reasons: [] });
  });

  test('--fail-on info fails on any finding', () => {
    const info = finding({ title: 'Note', path: 'a.ts', line: 1, severity: 'info' });
    expect(gates({ findings: [info], failOn: 'info' }).exitCode).toBe(3);
  });

  test('the worst is the most severe, then the first by path and line', () => {
    const critical = finding({ title: 'Crit', path: 'z.ts', line: 5, severity: 'critical' });
    const result = gates({ findings: [...FINDINGS, critical], failOn: 'low' });
    expect(result.reasons[0]).toMatch(
      /5 findings at or above low; worst: critical "Crit" at z\.ts:5$/,
    );
  });

  test('unverified findings never gate: only report.findings goes in', () => {
    const report = sampleModelReport();
    const unverifiedCritical = finding({
      title: 'Guess',
      path: 'x.ts',
      line: 1,
      severity: 'critical',
    });
    report.unverified = [unverifiedCritical];
    report.findings = [];
    expect(gates({ findings: report.findings, failOn: 'info' })).toEqual({
      exitCode: 0,
      reasons: [],
    });
    // @ts-expect-error: the gate input has no place for unverified findings.
    const input: GateInput = { ...FULL_INPUT, unverified: [unverifiedCritical] };
    expect(evaluateGates(input).exitCode).toBe(0);
  });

  test('an edit to the audit configuration under --diff gates at medium', () => {
    const configChanges = [{ path: '.oyignore' }];
    expect(gates({ configChanges, failOn: 'medium' })).toEqual({
      exitCode: 3,
      reasons: [
        '`--fail-on medium`: 1 finding at or above medium; worst: medium "The audited change edits the audit\'s own configuration (.oyignore)" at .oyignore',
      ],
    });
    expect(gates({ configChanges, failOn: 'high' }).exitCode).toBe(0);
    // A model finding of the same severity comes first in the reason, then the count covers both.
    const medium = gates({ findings: FINDINGS, configChanges, failOn: 'medium' });
    expect(medium.reasons[0]).toMatch(
      /: 4 findings at or above medium; worst: high "Open redirect"/,
    );
  });

  test('a partial result: exit 4 with the number of files not reviewed', () => {
    expect(gates({ isPartial: true, coverage: { ...FULL, filesFailed: 3 } })).toEqual({
      exitCode: 4,
      reasons: [
        'partial result: 3 files were not reviewed (pass `--allow-partial` to accept a partial result)',
      ],
    });
  });

  test('a partial result with no failed file (a cost cap) still says why', () => {
    expect(gates({ isPartial: true }).reasons).toEqual([
      'partial result: the review stopped before every chunk was reviewed (pass `--allow-partial` to accept a partial result)',
    ]);
  });

  test('--allow-partial accepts a partial result', () => {
    expect(
      gates({ isPartial: true, allowPartial: true, coverage: { ...FULL, filesFailed: 1 } }),
    ).toEqual({
      exitCode: 0,
      reasons: [],
    });
  });

  test('coverage below --min-coverage: exit 4 with the numbers', () => {
    const coverage = {
      filesReviewed: 17,
      filesFailed: 2,
      skippedByReason: { 'too-large': 1, binary: 9 },
    };
    expect(gates({ minCoverage: 0.9, coverage })).toEqual({
      exitCode: 4,
      reasons: [
        "`--min-coverage 0.9`: 17 of 20 reviewable files reviewed (0.85); 3 not reviewed (failed, unreadable, or left out by what the repository holds, --riskiest or --no-submodules; the report's Coverage lists them by reason)",
      ],
    });
  });

  test('coverage exactly at the floor passes', () => {
    const coverage = { filesReviewed: 9, filesFailed: 1, skippedByReason: {} };
    expect(gates({ minCoverage: 0.9, coverage }).exitCode).toBe(0);
  });

  test('a coverage just below the floor never prints as equal to it', () => {
    const coverage = { filesReviewed: 8999, filesFailed: 1001, skippedByReason: {} };
    expect(gates({ minCoverage: 0.9, coverage }).reasons[0]).toContain('(0.899)');
  });

  test('--allow-partial does not waive --min-coverage', () => {
    const coverage = { filesReviewed: 1, filesFailed: 9, skippedByReason: {} };
    const result = gates({ isPartial: true, allowPartial: true, minCoverage: 0.5, coverage });
    expect(result.exitCode).toBe(4);
    expect(result.reasons).toHaveLength(1);
    expect(result.reasons[0]).toMatch(/^`--min-coverage 0\.5`/);
  });

  test('fail-on wins over partial and coverage (exit 3), and every reason is listed in order', () => {
    const coverage = { filesReviewed: 1, filesFailed: 9, skippedByReason: {} };
    const result = gates({
      findings: FINDINGS,
      failOn: 'high',
      isPartial: true,
      minCoverage: 0.5,
      coverage,
    });
    expect(result.exitCode).toBe(3);
    expect(result.reasons.map((reason) => reason.split(':')[0])).toEqual([
      '`--fail-on high`',
      'partial result',
      '`--min-coverage 0.5`',
    ]);
  });

  test('partial and coverage together: exit 4 with both reasons', () => {
    const coverage = { filesReviewed: 1, filesFailed: 9, skippedByReason: {} };
    const result = gates({
      findings: FINDINGS,
      failOn: 'critical',
      isPartial: true,
      minCoverage: 0.5,
      coverage,
    });
    expect(result.exitCode).toBe(4);
    expect(result.reasons).toHaveLength(2);
  });
});

describe('coverageRatio', () => {
  test("counts failed files, read errors and what the repository caused, not the user's choices or empty files", () => {
    const ratio = coverageRatio({
      filesReviewed: 6,
      filesFailed: 1,
      skippedByReason: {
        'too-large': 1,
        'line-too-long': 1,
        unreadable: 1,
        missing: 0,
        binary: 50,
        empty: 4,
        symlink: 3,
        lockfile: 3,
        'secret-file': 2,
        excluded: 10,
        'not-included': 7,
        unchanged: 100,
        scope: 20,
        'oy-output': 2,
      },
    });
    expect(ratio).toEqual({ reviewed: 6, unreviewed: 7, ratio: 6 / 13 });
  });

  test('every skip the repository can cause by what it writes counts as not reviewed', () => {
    const caused = {
      'default-dir': 1,
      lockfile: 1,
      minified: 1,
      generated: 1,
      'unexpected-binary': 1,
      'invalid-utf8': 1,
      'too-large': 1,
      'invalid-name': 1,
      'hard-link': 1,
      'submodule-not-checked-out': 1,
    };
    const ratio = coverageRatio({ filesReviewed: 0, filesFailed: 0, skippedByReason: caused });
    expect(ratio.unreviewed).toBe(Object.keys(caused).length);
    // --no-submodules and --riskiest are the user's, but they leave code unreviewed all the same.
    expect(
      coverageRatio({
        filesReviewed: 1,
        filesFailed: 0,
        skippedByReason: { submodule: 1, budget: 2 },
      }),
    ).toEqual({ reviewed: 1, unreviewed: 3, ratio: 0.25 });
  });

  test("files the repository's own rules left out count as not reviewed", () => {
    const ratio = coverageRatio({
      filesReviewed: 2,
      filesFailed: 0,
      skippedByReason: { 'repository-ignore': 5, 'project-exclude': 1, excluded: 40 },
    });
    expect(ratio).toEqual({ reviewed: 2, unreviewed: 6, ratio: 0.25 });
  });

  test('nothing to review is full coverage: nothing was missed', () => {
    expect(
      coverageRatio({ filesReviewed: 0, filesFailed: 0, skippedByReason: { binary: 3 } }).ratio,
    ).toBe(1);
  });

  test('nothing reviewed out of something is zero', () => {
    expect(coverageRatio({ filesReviewed: 0, filesFailed: 2, skippedByReason: {} }).ratio).toBe(0);
  });
});
