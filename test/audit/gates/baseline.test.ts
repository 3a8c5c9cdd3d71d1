import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { applyBaseline, readBaseline, renderBaseline } from '../../../src/audit/gates/baseline.js';
import { UsageError } from '../../../src/shared/errors.js';
import { finding } from '../../support/sample-report.js';

const GENERATED_AT = '2026-01-02T03:04:05.000Z';

const FINDINGS = [
  finding({ title: 'Zeta', path: 'src/z.ts', line: 3, fingerprint: 'fp-z', category: 'xss' }),
  finding({
    title: 'Alpha',
    path: 'src/a.ts',
    line: 9,
    fingerprint: 'fp-a2',
    category: 'injection',
  }),
  finding({
    title: 'Alpha again',
    path: 'src/a.ts',
    line: 1,
    fingerprint: 'fp-a1',
    category: 'injection',
  }),
  finding({
    title: 'Same print',
    path: 'src/a.ts',
    line: 50,
    fingerprint: 'fp-a1',
    category: 'injection',
  }),
];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'oy-baseline-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function expectUsageError(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  expect((error as UsageError).message).toMatch(message);
  expect((error as UsageError).message).toContain('`--baseline`');
  expect((error as UsageError).exitCode).toBe(2);
}

describe('renderBaseline', () => {
  test('snapshot: sorted by path, category and fingerprint; one entry per fingerprint', () => {
    expect(renderBaseline(FINDINGS, GENERATED_AT)).toMatchInlineSnapshot(`
      "{
        "schemaVersion": 1,
        "tool": "oy",
        "generatedAt": "2026-01-02T03:04:05.000Z",
        "fingerprints": [
          {
            "fingerprint": "fp-a1",
            "category": "injection",
            "path": "src/a.ts",
            "title": "Alpha again"
          },
          {
            "fingerprint": "fp-a2",
            "category": "injection",
            "path": "src/a.ts",
            "title": "Alpha"
          },
          {
            "fingerprint": "fp-z",
            "category": "xss",
            "path": "src/z.ts",
            "title": "Zeta"
          }
        ]
      }
      "
    `);
  });

  test('the same findings in another order give the same bytes', () => {
    expect(renderBaseline([...FINDINGS].reverse(), GENERATED_AT)).toBe(
      renderBaseline(FINDINGS, GENERATED_AT),
    );
  });
});

describe('readBaseline', () => {
  test('round trip: what renderBaseline writes, readBaseline reads', async () => {
    const file = path.join(dir, 'baseline.json');
    await writeFile(file, renderBaseline(FINDINGS, GENERATED_AT));
    expect(await readBaseline(file)).toEqual(new Set(['fp-a1', 'fp-a2', 'fp-z']));
  });

  test('an empty baseline suppresses nothing', async () => {
    const file = path.join(dir, 'empty.json');
    await writeFile(file, renderBaseline([], GENERATED_AT));
    expect(await readBaseline(file)).toEqual(new Set());
  });

  test('entries may carry ruleId instead of category, or only a fingerprint', async () => {
    const file = path.join(dir, 'hand.json');
    await writeFile(
      file,
      JSON.stringify({
        schemaVersion: 1,
        tool: 'oy',
        fingerprints: [
          { fingerprint: 'a', ruleId: 'oy/finding/xss', path: 'x', title: 't' },
          { fingerprint: 'b' },
        ],
      }),
    );
    expect(await readBaseline(file)).toEqual(new Set(['a', 'b']));
  });

  test('a missing file is a UsageError naming the flag and the path', async () => {
    const file = path.join(dir, 'nope.json');
    await expectUsageError(readBaseline(file), /not found: .*nope\.json/);
  });

  test('a directory is a UsageError too', async () => {
    await mkdir(path.join(dir, 'sub'));
    await expectUsageError(readBaseline(path.join(dir, 'sub')), /not found/);
  });

  test.each([
    ['not JSON', '{"schemaVersion": 1,', /not JSON/],
    [
      'a wrong schema version',
      '{"schemaVersion": 2, "tool": "oy", "fingerprints": []}',
      /schemaVersion/,
    ],
    ['another tool', '{"schemaVersion": 1, "tool": "semgrep", "fingerprints": []}', /tool/],
    ['no fingerprints', '{"schemaVersion": 1, "tool": "oy"}', /fingerprints/],
    [
      'an entry without a fingerprint',
      '{"schemaVersion": 1, "tool": "oy", "fingerprints": [{"path": "a"}]}',
      /fingerprints\.0\.fingerprint/,
    ],
    [
      'an empty fingerprint',
      '{"schemaVersion": 1, "tool": "oy", "fingerprints": [{"fingerprint": ""}]}',
      /fingerprints\.0\.fingerprint/,
    ],
    ['a SARIF file', '{"version": "2.1.0", "runs": []}', /not an oy baseline/],
  ])('%s is a UsageError naming the flag', async (_name, text, message) => {
    const file = path.join(dir, 'bad.json');
    await writeFile(file, text);
    await expectUsageError(readBaseline(file), message);
  });
});

describe('applyBaseline', () => {
  test('splits findings by fingerprint and keeps their order', () => {
    const { kept, suppressed } = applyBaseline(FINDINGS, new Set(['fp-a1', 'unknown']));
    expect(kept.map((f) => f.title)).toEqual(['Zeta', 'Alpha']);
    expect(suppressed.map((f) => f.title)).toEqual(['Alpha again', 'Same print']);
  });

  test('an empty baseline keeps everything', () => {
    const { kept, suppressed } = applyBaseline(FINDINGS, new Set());
    expect(kept).toEqual(FINDINGS);
    expect(suppressed).toEqual([]);
  });
});
