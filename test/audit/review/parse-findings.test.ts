import { describe, expect, it } from 'vitest';
import { parseFindings, renderRepairPrompt } from '../../../src/audit/review/parse-findings.js';
import { DEFAULT_CONFIDENCE } from '../../../src/audit/review/raw-finding.js';

const finding = {
  title: 'SQL built from input',
  severity: 'high',
  category: 'sql-injection',
  path: 'src/db.ts',
  line: 12,
  end_line: 13,
  evidence: 'db.query("SELECT * FROM t WHERE id=" + id)',
  impact: 'read any row',
  preconditions: 'none',
  fix: 'use a parameter',
  confidence: 0.9,
};
const answer = JSON.stringify({ findings: [finding] });

function parsed(text: string) {
  const result = parseFindings(text);
  if ('error' in result) throw new Error(`unexpected error: ${result.error}`);
  return result;
}

function only(text: string) {
  const result = parsed(text);
  expect(result.findings).toHaveLength(1);
  return result.findings[0]!;
}

function errorOf(text: string): string {
  const result = parseFindings(text);
  if (!('error' in result)) throw new Error('expected an error');
  return result.error;
}

describe('parseFindings lenient forms', () => {
  it('reads bare JSON into the normalised shape', () => {
    expect(parsed(answer)).toEqual({
      findings: [
        {
          title: 'SQL built from input',
          severity: 'high',
          category: 'sql-injection',
          path: 'src/db.ts',
          line: 12,
          endLine: 13,
          evidence: 'db.query("SELECT * FROM t WHERE id=" + id)',
          impact: 'read any row',
          preconditions: 'none',
          fix: 'use a parameter',
          confidence: 0.9,
        },
      ],
      dropped: [],
    });
  });

  it('reads the empty answer as no findings', () => {
    expect(parsed('{"findings": []}')).toEqual({ findings: [], dropped: [] });
  });

  it('reads a ```json fence', () => {
    expect(only('```json\n' + answer + '\n```').line).toBe(12);
  });

  it('reads a plain ``` fence', () => {
    expect(only('```\n' + answer + '\n```').line).toBe(12);
  });

  it('reads a fence amid prose', () => {
    expect(only(`Here are my findings:\n\n\`\`\`json\n${answer}\n\`\`\`\nLet me know.`).path).toBe(
      'src/db.ts',
    );
  });

  it('reads JSON after leading prose and before trailing prose', () => {
    expect(only(`I reviewed the code. ${answer} Hope this helps!`).title).toBe(
      'SQL built from input',
    );
  });

  it('skips a bracket in prose before the object', () => {
    expect(only(`I found [1] issue: ${answer}`).title).toBe('SQL built from input');
  });

  it('takes the findings block when an earlier fence holds other JSON', () => {
    expect(only('```json\n{"note": 1}\n```\nand\n```json\n' + answer + '\n```').line).toBe(12);
  });

  it('reads a top-level array', () => {
    expect(only(JSON.stringify([finding])).category).toBe('sql-injection');
  });

  it('reads severity in another case', () => {
    expect(only(JSON.stringify([{ ...finding, severity: ' HIGH ' }])).severity).toBe('high');
  });

  it('maps severity aliases', () => {
    expect(only(JSON.stringify([{ ...finding, severity: 'Informational' }])).severity).toBe('info');
    expect(only(JSON.stringify([{ ...finding, severity: 'moderate' }])).severity).toBe('medium');
  });

  it('reads line numbers given as strings', () => {
    const read = only(JSON.stringify([{ ...finding, line: '40', end_line: '42' }]));
    expect([read.line, read.endLine]).toEqual([40, 42]);
  });

  it('reads a line given as L40 or as a range', () => {
    expect(only(JSON.stringify([{ ...finding, line: 'L40', end_line: undefined }])).line).toBe(40);
    expect(only(JSON.stringify([{ ...finding, line: '40-45', end_line: undefined }])).line).toBe(
      40,
    );
  });

  it('sets a missing or null end_line to line', () => {
    expect(only(JSON.stringify([{ ...finding, end_line: undefined }])).endLine).toBe(12);
    expect(only(JSON.stringify([{ ...finding, end_line: null }])).endLine).toBe(12);
  });

  it('accepts endLine in camel case', () => {
    expect(only(JSON.stringify([{ ...finding, end_line: undefined, endLine: 20 }])).endLine).toBe(
      20,
    );
  });

  it('raises an end_line before line to line', () => {
    expect(only(JSON.stringify([{ ...finding, end_line: 3 }])).endLine).toBe(12);
  });

  it('reads a percentage confidence', () => {
    expect(only(JSON.stringify([{ ...finding, confidence: 85 }])).confidence).toBeCloseTo(0.85);
    expect(only(JSON.stringify([{ ...finding, confidence: '70%' }])).confidence).toBeCloseTo(0.7);
    expect(only(JSON.stringify([{ ...finding, confidence: '0.4' }])).confidence).toBeCloseTo(0.4);
  });

  it('defaults a missing confidence', () => {
    expect(only(JSON.stringify([{ ...finding, confidence: undefined }])).confidence).toBe(
      DEFAULT_CONFIDENCE,
    );
  });

  it('sets missing optional text fields to empty strings', () => {
    const read = only(
      JSON.stringify([{ ...finding, impact: undefined, preconditions: null, fix: undefined }]),
    );
    expect([read.impact, read.preconditions, read.fix]).toEqual(['', '', '']);
  });

  it('joins evidence given as an array of lines', () => {
    expect(only(JSON.stringify([{ ...finding, evidence: ['a()', 'b()'] }])).evidence).toBe(
      'a()\nb()',
    );
  });

  it('cleans a path copied from a part header', () => {
    expect(only(JSON.stringify([{ ...finding, path: './src/db.ts (lines 1-90)' }])).path).toBe(
      'src/db.ts',
    );
  });

  it('turns a category into kebab case, and a missing one into other', () => {
    expect(only(JSON.stringify([{ ...finding, category: 'SQL Injection' }])).category).toBe(
      'sql-injection',
    );
    expect(only(JSON.stringify([{ ...finding, category: undefined }])).category).toBe('other');
  });

  it('forgives trailing commas', () => {
    expect(only(`{"findings": [${JSON.stringify(finding).replace(/}$/, ',}')},],}`).line).toBe(12);
  });

  it('keeps commas and brackets inside strings', () => {
    const title = 'a, ] b, } c';
    expect(only(JSON.stringify([{ ...finding, title }])).title).toBe(title);
  });

  it('drops invalid findings, keeps the valid ones and says why', () => {
    const result = parsed(
      JSON.stringify({
        findings: [finding, { ...finding, severity: 'urgent' }, { ...finding, evidence: '' }],
      }),
    );
    expect(result.findings).toHaveLength(1);
    expect(result.dropped.map((drop) => drop.index)).toEqual([1, 2]);
    expect(result.dropped[0]!.reason).toMatch(/^severity: /);
    expect(result.dropped[1]!.reason).toBe('evidence: must not be empty');
  });

  it('drops a finding with a non-positive or fractional line', () => {
    const result = parsed(
      JSON.stringify([finding, { ...finding, line: 0 }, { ...finding, line: 2.5 }]),
    );
    expect(result.findings).toHaveLength(1);
    expect(result.dropped).toHaveLength(2);
  });

  it('drops a confidence above 100 percent', () => {
    expect(
      parsed(JSON.stringify([finding, { ...finding, confidence: 150 }])).dropped[0]!.reason,
    ).toMatch(/^confidence: /);
  });
});

describe('parseFindings failures', () => {
  it('names an empty answer', () => {
    expect(errorOf('  \n')).toBe('the answer was empty.');
  });

  it('names prose without JSON and quotes its start', () => {
    expect(errorOf('I could not find any problems in this code.')).toBe(
      'no JSON object found; the answer starts with "I could not find any problems in this code.".',
    );
  });

  it('shortens a long quoted start', () => {
    const error = errorOf('x'.repeat(500));
    expect(error.length).toBeLessThan(120);
    expect(error).toContain('...');
  });

  it('names a cut-off answer', () => {
    expect(errorOf(answer.slice(0, 80))).toBe(
      'the JSON ends before its closing bracket, so the answer was probably cut off; send fewer or shorter findings.',
    );
  });

  it('names a cut-off answer after prose', () => {
    expect(errorOf(`Here are the findings: ${answer.slice(0, 120)}`)).toMatch(/probably cut off/);
  });

  it('names prose in a fence without JSON', () => {
    expect(errorOf('```\nNo issues found.\n```')).toMatch(
      /^no JSON object found; the answer starts with "```/,
    );
  });

  it('names a syntax error with the parser message', () => {
    expect(errorOf("{'findings': []}")).toMatch(/^the JSON does not parse: .+\.$/);
  });

  it('names an object without findings', () => {
    expect(errorOf('{"issues": [], "summary": "ok"}')).toBe(
      'expected an object {"findings": [...]}, got an object with keys "issues", "summary".',
    );
  });

  it('names findings that are not an array', () => {
    expect(errorOf('{"findings": null}')).toBe(
      'expected an object {"findings": [...]}, but "findings" is null, not an array.',
    );
    expect(errorOf('{"findings": {"a": 1}}')).toBe(
      'expected an object {"findings": [...]}, but "findings" is object, not an array.',
    );
  });

  it('names a scalar answer', () => {
    expect(errorOf('```json\n"none"\n```')).toBe(
      'expected an object {"findings": [...]}, got "none".',
    );
  });

  it('names every finding invalid, up to three, and counts the rest', () => {
    const error = errorOf(JSON.stringify([1, 2, 3, 4, 5]));
    expect(error).toMatch(
      /^none of the 5 findings is valid: findings\[0\] \(finding\): .+; and 2 more\.$/,
    );
  });

  it('names the missing field of the only finding', () => {
    expect(errorOf(JSON.stringify([{ ...finding, path: undefined }]))).toMatch(
      /^none of the 1 findings is valid: findings\[0\] path: /,
    );
  });
});

describe('renderRepairPrompt', () => {
  it('carries the error and asks for the JSON again', () => {
    expect(renderRepairPrompt('the answer was empty.')).toMatchInlineSnapshot(`
      "Your answer could not be read: the answer was empty.
      Answer again with only the JSON object {"findings": [...]} in the format described above, no prose and no code fence. If there is nothing to report, answer {"findings": []}."
    `);
  });

  it('inserts an error holding $ patterns literally', () => {
    expect(renderRepairPrompt('got "$&" and $\'')).toContain('got "$&" and $\'');
  });
});
