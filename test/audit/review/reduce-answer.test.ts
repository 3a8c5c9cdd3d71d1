import { describe, expect, test } from 'vitest';
import { applyReduce } from '../../../src/audit/review/apply-reduce.js';
import { dedupeFindings } from '../../../src/audit/review/dedupe-findings.js';
import {
  MAX_SUMMARY_CHARS,
  parseReduceAnswer,
} from '../../../src/audit/review/parse-reduce-answer.js';
import { reduceFindingIds } from '../../../src/audit/review/reduce-finding-ids.js';
import type { Finding } from '../../../src/audit/types.js';
import { finding } from '../../support/sample-report.js';

const IDS = ['F1', 'F2', 'F3', 'F4'];

// Report order: F1 critical a.ts, F2 high a.ts, F3 medium b.ts, F4 low a.ts.
function sample(): Finding[] {
  return dedupeFindings([
    finding({ title: 'One', path: 'a.ts', line: 1, severity: 'critical', category: 'xss' }),
    finding({ title: 'Two', path: 'a.ts', line: 20, severity: 'high', category: 'injection' }),
    finding({ title: 'Three', path: 'b.ts', line: 5, severity: 'medium', category: 'injection' }),
    finding({
      title: 'Four',
      path: 'a.ts',
      line: 40,
      severity: 'low',
      category: 'sqli',
      fix: 'Other fix.',
    }),
  ]);
}

const titles = (findings: Finding[]): string[] => findings.map((f) => f.title);

describe('parseReduceAnswer', () => {
  test('reads bare JSON', () => {
    const answer = parseReduceAnswer(
      '{"summary": "Two serious problems.", "order": ["F2", "F1"], "merge": [["F2", "F4"]]}',
      IDS,
    );
    expect(answer).toEqual({
      summary: 'Two serious problems.',
      order: ['F2', 'F1'],
      merge: [['F2', 'F4']],
    });
  });

  test('reads fenced JSON with prose around it', () => {
    const text =
      'Here you go:\n```json\n{"summary": "S", "order": ["F3"], "merge": []}\n```\nThanks.';
    expect(parseReduceAnswer(text, IDS)).toEqual({ summary: 'S', order: ['F3'], merge: [] });
  });

  test('reads an object embedded in prose without a fence', () => {
    const text = 'Result: {"summary": "S", "order": ["F1"]} — done';
    expect(parseReduceAnswer(text, IDS)).toEqual({ summary: 'S', order: ['F1'], merge: [] });
  });

  test('forgives a trailing comma, as the map parser does', () => {
    expect(parseReduceAnswer('```\n{"summary": "S", "order": ["F1",],}\n```', IDS)).toEqual({
      summary: 'S',
      order: ['F1'],
      merge: [],
    });
  });

  test('ignores unknown ids, repeats and non-strings; matches ids in any case', () => {
    const answer = parseReduceAnswer(
      '{"order": ["F9", "f2", "F2", 3, null, " F1 "], "merge": [["F1", "F99"], ["F3", "f4", "F3"]]}',
      IDS,
    );
    expect(answer).toEqual({ summary: null, order: ['F2', 'F1'], merge: [['F3', 'F4']] });
  });

  test('an id in two merge groups stays in the first', () => {
    const answer = parseReduceAnswer('{"merge": [["F1", "F2"], ["F2", "F3", "F4"]]}', IDS);
    expect(answer?.merge).toEqual([
      ['F1', 'F2'],
      ['F3', 'F4'],
    ]);
  });

  test('a merge group left with one id is dropped', () => {
    const answer = parseReduceAnswer(
      '{"summary": "S", "merge": [["F1", "F1"], ["F2"], "F3"]}',
      IDS,
    );
    expect(answer?.merge).toEqual([]);
  });

  test('a blank summary is null; a long one is cut', () => {
    expect(parseReduceAnswer('{"summary": "   ", "order": ["F1"]}', IDS)?.summary).toBeNull();
    const long = parseReduceAnswer(JSON.stringify({ summary: 'word '.repeat(1_000) }), IDS);
    expect(long?.summary).toHaveLength(MAX_SUMMARY_CHARS);
    expect(long?.summary?.endsWith('…')).toBe(true);
  });

  test.each([
    ['not JSON', 'I could not decide.'],
    ['truncated JSON', '{"summary": "S", "order": ["F1"'],
    ['an array', '["F1", "F2"]'],
    ['a string', '"F1"'],
    ['an object with nothing usable', '{"summary": 3, "order": ["F9"], "merge": "F1"}'],
    ['an empty text', ''],
  ])('%s is unusable (null)', (_name, text) => {
    expect(parseReduceAnswer(text, IDS)).toBeNull();
  });
});

describe('applyReduce', () => {
  test('ids use positions in the array the prompt was rendered from', () => {
    expect(reduceFindingIds(sample())).toEqual(IDS);
    expect(titles(sample())).toEqual(['One', 'Two', 'Three', 'Four']);
  });

  test('an unusable answer keeps the report order and gives no summary', () => {
    const findings = sample();
    const shuffled = [findings[3], findings[0], findings[2], findings[1]] as Finding[];
    expect(applyReduce(shuffled, null)).toEqual({
      findings,
      summary: null,
      isModelOrder: false,
    });
  });

  test('named findings come first in the answer order, the rest keep report order', () => {
    const answer = parseReduceAnswer('{"summary": "S", "order": ["F3", "F2"]}', IDS);
    const result = applyReduce(sample(), answer);
    expect(titles(result.findings)).toEqual(['Three', 'Two', 'One', 'Four']);
    expect(result.summary).toBe('S');
    expect(result.isModelOrder).toBe(true);
  });

  test('a merge group becomes one finding by the dedupe rules, at its best-ranked place', () => {
    const answer = parseReduceAnswer('{"order": ["F3", "F4", "F1"], "merge": [["F4", "F2"]]}', IDS);
    const result = applyReduce(sample(), answer);
    expect(titles(result.findings)).toEqual(['Three', 'Two', 'One']);
    expect(result.findings[1]).toMatchObject({
      severity: 'high',
      line: 20,
      endLine: 40,
      fix: 'Validate the input.\nOther fix.',
    });
  });

  test('a merge across files is split per file, so no location is lost', () => {
    const answer = parseReduceAnswer('{"merge": [["F1", "F3", "F2"]]}', IDS);
    const result = applyReduce(sample(), answer);
    expect(result.findings.map((f) => `${f.title} ${f.path}:${f.line}-${f.endLine}`)).toEqual([
      'One a.ts:1-20',
      'Three b.ts:5-5',
      'Four a.ts:40-40',
    ]);
  });

  test('every input finding ends in exactly one output finding', () => {
    const findings = Array.from({ length: 30 }, (_, index) =>
      finding({
        title: `T${index}`,
        path: `p${index % 3}.ts`,
        line: index + 1,
        fingerprint: `fp${index}`,
      }),
    );
    const ids = reduceFindingIds(findings);
    const answer = parseReduceAnswer(
      JSON.stringify({
        order: ['F30', 'F7', 'F1'],
        merge: [ids.slice(0, 10), ['F11', 'F12', 'F29']],
      }),
      ids,
    );
    const result = applyReduce(findings, answer);
    const covered = findings.filter((input) =>
      result.findings.some(
        (output) =>
          output.path === input.path && output.line <= input.line && input.line <= output.endLine,
      ),
    );
    expect(covered).toHaveLength(findings.length);
    // F1-F10 span three files: 3 findings; F11 and F29 share p1.ts, F12 is alone in p2.ts.
    expect(result.findings).toHaveLength(30 - 10 + 3 - 3 + 2);
    // F7 and F1 are one merged finding led by T0 (earlier line); then report order resumes.
    expect(titles(result.findings).slice(0, 3)).toEqual(['T29', 'T0', 'T12']);
  });
});
