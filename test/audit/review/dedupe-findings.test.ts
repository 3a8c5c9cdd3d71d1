import { describe, expect, test } from 'vitest';
import { categoryKey } from '../../../src/audit/review/compare-findings.js';
import { dedupeFindings } from '../../../src/audit/review/dedupe-findings.js';
import { mergeFindings } from '../../../src/audit/review/merge-findings.js';
import type { Finding } from '../../../src/audit/types.js';
import { finding } from '../../support/sample-report.js';
import { seededRandom } from '../../support/seeded-random.js';

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

const at = (line: number, endLine: number, fields: Partial<Finding> = {}): Finding =>
  finding({ title: `Issue at ${line}`, path: 'src/app.ts', line, endLine, ...fields });

describe('dedupeFindings', () => {
  test('an empty list stays empty', () => {
    expect(dedupeFindings([])).toEqual([]);
  });

  test('a single finding is returned unchanged', () => {
    const only = at(3, 5);
    expect(dedupeFindings([only])).toEqual([only]);
  });

  test('overlapping ranges in the same file and category merge', () => {
    const result = dedupeFindings([at(10, 14), at(12, 20)]);
    expect(result).toHaveLength(1);
    expect(result[0]).toMatchObject({ line: 10, endLine: 20 });
  });

  test('a range inside another merges into the outer range', () => {
    const result = dedupeFindings([at(1, 50), at(20, 21)]);
    expect(result.map((f) => [f.line, f.endLine])).toEqual([[1, 50]]);
  });

  test('ranges sharing one line merge', () => {
    expect(dedupeFindings([at(1, 5), at(5, 9)])).toHaveLength(1);
  });

  test('adjacent ranges that do not overlap stay apart', () => {
    const result = dedupeFindings([at(1, 5), at(6, 9)]);
    expect(result.map((f) => [f.line, f.endLine])).toEqual([
      [1, 5],
      [6, 9],
    ]);
  });

  test('overlap is transitive through a chain of ranges', () => {
    const result = dedupeFindings([at(7, 10), at(1, 5), at(4, 8)]);
    expect(result.map((f) => [f.line, f.endLine])).toEqual([[1, 10]]);
  });

  test('a gap after a chain starts a new finding', () => {
    const result = dedupeFindings([at(1, 5), at(4, 8), at(9, 9), at(30, 31), at(31, 40)]);
    expect(result.map((f) => [f.line, f.endLine])).toEqual([
      [1, 8],
      [9, 9],
      [30, 40],
    ]);
  });

  test('different categories at the same lines stay apart', () => {
    const result = dedupeFindings([
      at(1, 5, { category: 'injection' }),
      at(1, 5, { category: 'complexity' }),
    ]);
    expect(result).toHaveLength(2);
  });

  test('categories differing only in case, spacing and punctuation merge', () => {
    expect(categoryKey('  SQL Injection ')).toBe('sql-injection');
    expect(categoryKey('sql_injection')).toBe('sql-injection');
    const result = dedupeFindings([
      at(1, 5, { category: 'SQL Injection' }),
      at(3, 6, { category: 'sql-injection' }),
      at(2, 2, { category: 'sql_injection' }),
    ]);
    expect(result).toHaveLength(1);
  });

  test('different paths at the same lines stay apart', () => {
    const result = dedupeFindings([at(1, 5), at(1, 5, { path: 'src/other.ts' })]);
    expect(result).toHaveLength(2);
  });

  test('a merge keeps the highest severity and confidence', () => {
    const [merged] = dedupeFindings([
      at(1, 5, { severity: 'low', confidence: 0.95 }),
      at(2, 3, { severity: 'critical', confidence: 0.4 }),
      at(4, 4, { severity: 'medium', confidence: 0.7 }),
    ]);
    expect(merged).toMatchObject({ severity: 'critical', confidence: 0.95 });
  });

  test('the leader (most severe) gives title, category, impact and preconditions', () => {
    const [merged] = dedupeFindings([
      at(1, 5, { severity: 'low', title: 'Minor', impact: 'small', category: 'Injection' }),
      at(2, 3, { severity: 'high', title: 'Major', impact: 'large', category: 'injection' }),
    ]);
    expect(merged).toMatchObject({ title: 'Major', impact: 'large', category: 'injection' });
  });

  test('the longest evidence is kept together with its own fingerprint', () => {
    const [merged] = dedupeFindings([
      at(1, 5, { severity: 'high', evidence: 'short', fingerprint: 'fp-short' }),
      at(2, 3, { severity: 'low', evidence: 'a much longer line', fingerprint: 'fp-long' }),
    ]);
    expect(merged).toMatchObject({ evidence: 'a much longer line', fingerprint: 'fp-long' });
  });

  test('between evidence of equal length, the leader keeps its own', () => {
    const [merged] = dedupeFindings([
      at(1, 5, { severity: 'low', evidence: 'bbbb', fingerprint: 'fp-low' }),
      at(2, 3, { severity: 'high', evidence: 'aaaa', fingerprint: 'fp-high' }),
    ]);
    expect(merged).toMatchObject({ evidence: 'aaaa', fingerprint: 'fp-high' });
  });

  test('distinct fixes are joined, the leader first; repeats and blanks are dropped', () => {
    const [merged] = dedupeFindings([
      at(1, 5, { severity: 'low', fix: 'Escape output.' }),
      at(2, 3, { severity: 'high', fix: 'Use a parameterised query.' }),
      at(3, 3, { severity: 'medium', fix: '  Use a   parameterised query. ' }),
      at(4, 4, { severity: 'info', fix: '   ' }),
    ]);
    expect(merged?.fix).toBe('Use a parameterised query.\nEscape output.');
  });

  test('an end line before the start line counts as the start line', () => {
    const result = dedupeFindings([at(10, 2), at(10, 12)]);
    expect(result.map((f) => [f.line, f.endLine])).toEqual([[10, 12]]);
  });

  test('output is by severity, then path in byte order, then line', () => {
    const result = dedupeFindings([
      at(5, 5, { path: 'b.ts', severity: 'low' }),
      at(9, 9, { path: 'a.ts', severity: 'high' }),
      at(1, 1, { path: 'a.ts', severity: 'high' }),
      at(1, 1, { path: 'B.ts', severity: 'low' }),
      at(3, 3, { path: 'z.ts', severity: 'critical' }),
      at(2, 2, { path: 'é.ts', severity: 'info' }),
    ]);
    expect(result.map((f) => `${f.severity} ${f.path}:${f.line}`)).toEqual([
      'critical z.ts:3',
      'high a.ts:1',
      'high a.ts:9',
      'low B.ts:1',
      'low b.ts:5',
      'info é.ts:2',
    ]);
  });

  test('fully identical findings collapse into one', () => {
    const same = at(4, 6);
    expect(dedupeFindings([same, { ...same }, { ...same }])).toEqual([same]);
  });

  test('the same findings in any order give the same output (200 seeded shuffles)', () => {
    const random = seededRandom(42);
    const paths = ['a.ts', 'b.ts', 'src/c.ts'];
    const categories = ['injection', 'Injection', 'complexity', 'xss'];
    const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
    const input = Array.from({ length: 60 }, (_, index) => {
      const line = 1 + Math.floor(random() * 40);
      return finding({
        title: `T${index % 7}`,
        path: paths[index % 3] as string,
        line,
        endLine: line + Math.floor(random() * 4),
        category: categories[index % 4] as string,
        severity: severities[index % 5] as (typeof severities)[number],
        confidence: Math.round(random() * 10) / 10,
        evidence: 'x'.repeat(index % 5),
        fix: `fix ${index % 3}`,
        fingerprint: `fp${index}`,
      });
    });
    const expected = dedupeFindings(input);
    expect(expected.length).toBeLessThan(input.length);
    expect(expected.length).toBeGreaterThan(3);
    for (let round = 0; round < 200; round++) {
      expect(dedupeFindings(shuffle(input, random))).toEqual(expected);
    }
  });

  test('merging never produces overlapping findings of one path and category', () => {
    const random = seededRandom(7);
    const input = Array.from({ length: 80 }, (_, index) => {
      const line = 1 + Math.floor(random() * 100);
      return at(line, line + Math.floor(random() * 6), { title: `T${index}` });
    });
    const result = dedupeFindings(input);
    const byLine = [...result].sort((a, b) => a.line - b.line);
    for (let i = 1; i < byLine.length; i++) {
      expect(byLine[i]!.line).toBeGreaterThan(byLine[i - 1]!.endLine);
    }
    // Every input line range is covered by exactly one output finding.
    for (const item of input) {
      const covering = result.filter((f) => f.line <= item.line && item.endLine <= f.endLine);
      expect(covering).toHaveLength(1);
    }
  });

  test('mergeFindings refuses an empty group', () => {
    expect(() => mergeFindings([])).toThrow(/at least one/);
  });
});
