import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  locateEvidence,
  MAX_ELLIPSIS_GAP_LINES,
} from '../../../src/audit/review/locate-evidence.js';
import type { RawFinding } from '../../../src/audit/review/raw-finding.js';
import {
  fingerprintFinding,
  verifyFindings,
  type LineRange,
} from '../../../src/audit/review/verify-findings.js';

// src/db.ts, 30 lines: the query sits on lines 20-22.
const db =
  [
    ...Array.from({ length: 18 }, (_, index) => `// filler ${index + 1}`),
    'export function find(id: string) {',
    '  const sql = "SELECT * FROM users WHERE id = " + id;',
    '',
    '  return db.query(sql);',
    '}',
    'const key = "[REDACTED:aws-access-key:1]";',
    ...Array.from({ length: 6 }, (_, index) => `// tail ${index + 1}`),
  ].join('\n') + '\n';

const sources = new Map([
  ['src/db.ts', db],
  ['src/other.ts', 'export const a = 1;\n'],
]);
const reviewed = new Map<string, LineRange[]>([['src/db.ts', [{ startLine: 1, endLine: 30 }]]]);

function raw(overrides: Partial<RawFinding>): RawFinding {
  return {
    title: 'SQL built from input',
    severity: 'high',
    category: 'sql-injection',
    path: 'src/db.ts',
    line: 20,
    endLine: 20,
    evidence: 'const sql = "SELECT * FROM users WHERE id = " + id;',
    impact: '',
    preconditions: '',
    fix: '',
    confidence: 0.9,
    ...overrides,
  };
}

function verifyOne(
  overrides: Partial<RawFinding>,
  ranges: ReadonlyMap<string, LineRange[]> = reviewed,
) {
  return verifyFindings([raw(overrides)], sources, ranges);
}

function verifiedLines(overrides: Partial<RawFinding>): [number, number] {
  const { verified, unverified } = verifyOne(overrides);
  expect(unverified.map((finding) => finding.reason)).toEqual([]);
  return [verified[0]!.line, verified[0]!.endLine];
}

function reasonOf(overrides: Partial<RawFinding>, ranges?: ReadonlyMap<string, LineRange[]>) {
  const { verified, unverified } = verifyOne(overrides, ranges);
  expect(verified).toEqual([]);
  return unverified[0]!.reason;
}

describe('verifyFindings: verified', () => {
  it('verifies exact evidence at the cited line', () => {
    expect(verifiedLines({})).toEqual([20, 20]);
  });

  it('keeps every field and adds a fingerprint', () => {
    const { verified } = verifyOne({});
    expect(verified[0]).toEqual({
      ...raw({}),
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
    });
  });

  it('ignores whitespace differences', () => {
    expect(
      verifiedLines({ evidence: '\tconst   sql = "SELECT * FROM users WHERE id = "  +  id;  ' }),
    ).toEqual([20, 20]);
  });

  it('accepts part of a line', () => {
    expect(verifiedLines({ evidence: '"SELECT * FROM users WHERE id = " + id' })).toEqual([20, 20]);
  });

  it('corrects a line a few below the evidence and keeps the cited line', () => {
    expect(verifiedLines({ line: 23, endLine: 23 })).toEqual([20, 20]);
    expect(verifyOne({ line: 23, endLine: 23 }).verified[0]?.citedLine).toBe(23);
  });

  it('corrects a line a few above the evidence', () => {
    expect(verifiedLines({ line: 16, endLine: 16 })).toEqual([20, 20]);
  });

  it('has no cited line when the model cited the evidence line', () => {
    expect(verifyOne({}).verified[0]).not.toHaveProperty('citedLine');
  });

  it('verifies evidence that occurs once, however far the cited line (50 lines off)', () => {
    const long = [
      ...Array.from({ length: 100 }, (_, index) => `step(${index});`),
      'const rows = db.query("SELECT * FROM t WHERE id = " + req.query.id);',
    ].join('\n');
    const { verified, unverified } = verifyFindings(
      [
        raw({
          path: 'long.ts',
          line: 51,
          endLine: 51,
          evidence: 'db.query("SELECT * FROM t WHERE id = " + req.query.id)',
        }),
      ],
      new Map([['long.ts', long]]),
      new Map([['long.ts', [{ startLine: 1, endLine: 101 }]]]),
    );
    expect(unverified).toEqual([]);
    expect(verified[0]).toMatchObject({ line: 101, endLine: 101, citedLine: 51 });
  });

  it('matches evidence that occurs several times nearest the cited line', () => {
    const repeated = Array.from({ length: 120 }, (_, index) =>
      index % 40 === 10 ? 'exec("rm " + name);' : `step(${index});`,
    ).join('\n');
    const at = (line: number) =>
      verifyFindings(
        [raw({ path: 'rep.ts', line, endLine: line, evidence: 'exec("rm " + name);' })],
        new Map([['rep.ts', repeated]]),
        new Map([['rep.ts', [{ startLine: 1, endLine: 120 }]]]),
      ).verified[0]?.line;
    // The evidence is on lines 11, 51 and 91.
    expect([at(1), at(45), at(60), at(85), at(120)]).toEqual([11, 51, 51, 91, 91]);
  });

  it('verifies evidence in a reviewed range when the cited line is outside it', () => {
    const ranges = new Map([['src/db.ts', [{ startLine: 15, endLine: 25 }]]]);
    const { verified } = verifyOne({ line: 3, endLine: 3 }, ranges);
    expect(verified[0]).toMatchObject({ line: 20, citedLine: 3 });
  });

  it('finds evidence inside a cited range', () => {
    expect(verifiedLines({ line: 10, endLine: 25 })).toEqual([20, 20]);
  });

  it('matches multi-line evidence as a sequence, skipping blank lines', () => {
    expect(
      verifiedLines({
        evidence: 'const sql = "SELECT * FROM users WHERE id = " + id;\nreturn db.query(sql);',
      }),
    ).toEqual([20, 22]);
  });

  it('matches multi-line evidence that keeps the blank line', () => {
    expect(
      verifiedLines({
        evidence: 'const sql = "SELECT * FROM users WHERE id = " + id;\n\n  return db.query(sql);',
      }),
    ).toEqual([20, 22]);
  });

  it('treats a line of ... as a gap', () => {
    expect(
      verifiedLines({
        line: 19,
        evidence: 'export function find(id: string) {\n...\nreturn db.query(sql);',
      }),
    ).toEqual([19, 22]);
  });

  it('treats ... inside a line as a gap within that line', () => {
    expect(verifiedLines({ evidence: 'const sql = "SELECT ... WHERE id = " + id;' })).toEqual([
      20, 20,
    ]);
    expect(verifiedLines({ evidence: 'const sql = "SELECT … + id;' })).toEqual([20, 20]);
  });

  it('matches a redaction placeholder whatever its number', () => {
    expect(
      verifiedLines({ line: 24, evidence: 'const key = "[REDACTED:aws-access-key:3]";' }),
    ).toEqual([24, 24]);
  });

  it('ignores a part header copied into the evidence', () => {
    expect(
      verifiedLines({
        evidence: '=== src/db.ts ===\nconst sql = "SELECT * FROM users WHERE id = " + id;',
      }),
    ).toEqual([20, 20]);
  });

  it('verifies within one of several reviewed ranges', () => {
    const ranges = new Map([
      [
        'src/db.ts',
        [
          { startLine: 1, endLine: 5 },
          { startLine: 15, endLine: 25 },
        ],
      ],
    ]);
    expect(verifyOne({}, ranges).verified).toHaveLength(1);
  });

  it('sorts many findings into verified and unverified in order', () => {
    const { verified, unverified } = verifyFindings(
      [raw({ title: 'a' }), raw({ title: 'b', path: 'nope.ts' }), raw({ title: 'c', line: 21 })],
      sources,
      reviewed,
    );
    expect(verified.map((finding) => finding.title)).toEqual(['a', 'c']);
    expect(unverified.map((finding) => finding.title)).toEqual(['b']);
  });
});

describe('verifyFindings: unverified', () => {
  it('rejects evidence that is not in the file', () => {
    expect(reasonOf({ evidence: 'eval(userInput)' })).toBe(
      'evidence not found in the reviewed lines 1-30 of src/db.ts (cited line 20)',
    );
  });

  it('rejects evidence that is only outside the reviewed ranges', () => {
    const ranges = new Map([['src/db.ts', [{ startLine: 1, endLine: 10 }]]]);
    expect(reasonOf({ line: 5, endLine: 5 }, ranges)).toMatch(
      /^evidence not found in the reviewed lines 1-10/,
    );
  });

  it('rejects a paraphrase', () => {
    expect(reasonOf({ evidence: 'the SQL query concatenates id' })).toMatch(/^evidence not found/);
  });

  it('rejects multi-line evidence whose lines are not consecutive', () => {
    expect(
      reasonOf({ evidence: 'export function find(id: string) {\nreturn db.query(sql);' }),
    ).toMatch(/^evidence not found/);
  });

  it('rejects multi-line evidence in the wrong order', () => {
    expect(
      reasonOf({
        evidence: 'return db.query(sql);\nconst sql = "SELECT * FROM users WHERE id = " + id;',
      }),
    ).toMatch(/^evidence not found/);
  });

  it('rejects a gap longer than the gap limit', () => {
    const lines = Array.from(
      { length: MAX_ELLIPSIS_GAP_LINES + 5 },
      (_, index) => `step(${index});`,
    );
    const file = ['function long() {', ...lines, '  finish();', '}'].join('\n');
    const { unverified } = verifyFindings(
      [
        raw({
          path: 'long.ts',
          line: 1,
          endLine: 1,
          evidence: 'function long() {\n...\nfinish();',
        }),
      ],
      new Map([['long.ts', file]]),
      new Map([['long.ts', [{ startLine: 1, endLine: lines.length + 3 }]]]),
    );
    expect(unverified[0]?.reason).toMatch(/^evidence not found/);
  });

  it('gives up after bounded work on many gaps over repetitive code', () => {
    // Every evidence line occurs in the file, so only the search in order can fail.
    const lines = ['done();', ...Array.from({ length: 1_999 }, () => 'count = count + 1;')];
    const evidence = [
      ...Array.from({ length: 8 }, () => 'count = count + 1;\n...'),
      'done();',
    ].join('\n');
    const { unverified } = verifyFindings(
      [raw({ path: 'loop.ts', line: 1, endLine: 1, evidence })],
      new Map([['loop.ts', lines.join('\n')]]),
      new Map([['loop.ts', [{ startLine: 1, endLine: 2_000 }]]]),
    );
    expect(unverified).toHaveLength(1);
    // Work is counted, not timed: each (evidence line, source line) pair is tried at most once,
    // and each try looks at most one gap ahead, where backtracking would be exponential.
    let looks = 0;
    const patternLines = 9;
    expect(
      locateEvidence(evidence, lines, { line: 1, endLine: 1 }, () => {
        looks++;
        return true;
      }),
    ).toBe('not-found');
    expect(looks).toBeLessThanOrEqual(
      (patternLines + 1) * lines.length * (MAX_ELLIPSIS_GAP_LINES + 2),
    );
  });

  it('rejects evidence too short to locate', () => {
    expect(reasonOf({ evidence: '});' })).toBe(
      'evidence is too short to locate (under 6 characters)',
    );
  });

  it('rejects a path that does not exist', () => {
    expect(reasonOf({ path: 'src/dbs.ts' })).toBe('path src/dbs.ts is not a reviewed file');
  });

  it('rejects a path that exists but was not in the reviewed chunk', () => {
    expect(
      reasonOf({ path: 'src/other.ts', line: 1, endLine: 1, evidence: 'export const a = 1;' }),
    ).toBe('path src/other.ts was not in the reviewed chunk');
  });

  it('rejects a line past the end of the file', () => {
    expect(reasonOf({ line: 31, endLine: 31, evidence: 'eval(userInput)' })).toBe(
      'line 31 is past the end of src/db.ts (30 lines) and the evidence is not in it',
    );
  });

  it('rejects a line outside the reviewed ranges', () => {
    const ranges = new Map([
      [
        'src/db.ts',
        [
          { startLine: 1, endLine: 10 },
          { startLine: 25, endLine: 30 },
        ],
      ],
    ]);
    expect(reasonOf({}, ranges)).toBe(
      'line 20 is outside the reviewed lines 1-10, 25-30 of src/db.ts and the evidence is not in them',
    );
  });

  it('rejects evidence that runs past the reviewed range', () => {
    const ranges = new Map([['src/db.ts', [{ startLine: 1, endLine: 20 }]]]);
    expect(
      reasonOf(
        { evidence: 'const sql = "SELECT * FROM users WHERE id = " + id;\nreturn db.query(sql);' },
        ranges,
      ),
    ).toMatch(/^evidence not found/);
  });

  it('keeps the cited lines and all fields of an unverified finding', () => {
    const { unverified } = verifyOne({ path: 'gone.ts', line: 7, endLine: 9 });
    expect(unverified[0]).toMatchObject({ ...raw({ path: 'gone.ts', line: 7, endLine: 9 }) });
    expect(unverified[0]!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('fingerprints', () => {
  const fingerprint = (overrides: Partial<RawFinding>) =>
    verifyOne(overrides).verified[0]!.fingerprint;

  it('do not depend on the cited line or the evidence copy', () => {
    expect(fingerprint({ line: 22, endLine: 22 })).toBe(fingerprint({}));
    expect(fingerprint({ evidence: '"SELECT * FROM users WHERE id = " + id' })).toBe(
      fingerprint({}),
    );
  });

  it('move with the code: the same lines shifted down keep theirs', () => {
    const shifted = new Map([['src/db.ts', `// new line\n// another\n${db}`]]);
    const moved = verifyFindings([raw({ line: 22, endLine: 22 })], shifted, reviewed).verified[0];
    expect(moved?.line).toBe(22);
    expect(moved?.fingerprint).toBe(fingerprint({}));
  });

  it('depend on category and path', () => {
    expect(fingerprint({ category: 'complexity' })).not.toBe(fingerprint({}));
  });

  it('hash category, path and the normalised matched source lines', () => {
    const expected = createHash('sha256')
      .update(
        ['sql-injection', 'src/db.ts', 'const sql = "SELECT * FROM users WHERE id = " + id;'].join(
          '\0',
        ),
      )
      .digest('hex');
    expect(fingerprint({})).toBe(expected);
    expect(
      fingerprintFinding(
        'sql-injection',
        'src/db.ts',
        '  const sql = "SELECT * FROM users WHERE id = " + id;',
      ),
    ).toBe(expected);
  });

  it('drop the placeholder number', () => {
    expect(fingerprintFinding('c', 'p', 'k = "[REDACTED:aws-access-key:1]"')).toBe(
      fingerprintFinding('c', 'p', 'k = "[REDACTED:aws-access-key:7]"'),
    );
  });
});
