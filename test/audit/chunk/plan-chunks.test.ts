import { afterAll, describe, expect, it } from 'vitest';
import { comparePathsByDirectory } from '../../../src/audit/chunk/compare-paths-by-directory.js';
import { formatPartHeader } from '../../../src/audit/chunk/format-part-header.js';
import {
  chunkBudgetTokens,
  needsLineTokens,
  planChunks,
  type ChunkPlan,
  type ChunkPlanOptions,
} from '../../../src/audit/chunk/plan-chunks.js';
import { PART_BOUNDARY_TOKENS } from '../../../src/audit/chunk/render-part.js';
import { SPLIT_OVERLAP_LINES } from '../../../src/audit/chunk/split-file.js';
import { createTokenCounter } from '../../../src/audit/tokens/count-tokens.js';
import type { ChunkableFile } from '../../../src/audit/types.js';
import { makeFile, makeRandomTree, pick } from './random-tree.js';
import { seededRandom } from '../../support/seeded-random.js';

const counter = createTokenCounter();
afterAll(() => counter.free());
const countTokens = (text: string) => counter.count(text);
const headerTokens = (path: string, startLine: number, endLine: number, isSplit: boolean) =>
  countTokens(`${formatPartHeader({ path, startLine, endLine, isSplit })}\n`);

function optionsFor(chunkTokens: number, headroom = 1): ChunkPlanOptions {
  return { chunkTokens, headroom, countTokens };
}

/** Checks every invariant a plan promises, returning the problems found. */
function findPlanProblems(files: readonly ChunkableFile[], plan: ChunkPlan): string[] {
  const problems: string[] = [];
  const byPath = new Map(files.map((file) => [file.path, file]));
  const oversized = new Set(plan.oversized.map((entry) => entry.path));
  const partsByPath = new Map<string, { startLine: number; endLine: number; chunk: number }[]>();
  for (const [index, chunk] of plan.chunks.entries()) {
    if (chunk.tokens > plan.budgetTokens)
      problems.push(`chunk ${index} has ${chunk.tokens} > ${plan.budgetTokens}`);
    const partSum = chunk.parts.reduce((sum, part) => sum + part.tokens, 0);
    if (partSum !== chunk.tokens)
      problems.push(`chunk ${index} tokens ${chunk.tokens} != parts ${partSum}`);
    for (const part of chunk.parts) {
      const file = byPath.get(part.path)!;
      const body = part.isSplit
        ? file
            .lineTokens!.slice(part.startLine - 1, part.endLine)
            .reduce((sum, value) => sum + value, 0)
        : file.tokens;
      const expected =
        headerTokens(part.path, part.startLine, part.endLine, part.isSplit) +
        body +
        PART_BOUNDARY_TOKENS;
      if (part.tokens !== expected)
        problems.push(
          `${part.path} ${part.startLine}-${part.endLine}: ${part.tokens} != ${expected}`,
        );
      if (part.contentHash !== file.contentHash) problems.push(`${part.path}: wrong content hash`);
      const list = partsByPath.get(part.path) ?? [];
      list.push({ startLine: part.startLine, endLine: part.endLine, chunk: index });
      partsByPath.set(part.path, list);
    }
  }
  for (const file of files) {
    const parts = partsByPath.get(file.path) ?? [];
    if (oversized.has(file.path)) {
      if (parts.length > 0) problems.push(`${file.path} is oversized yet chunked`);
      continue;
    }
    if (parts.length === 0) problems.push(`${file.path} is missing`);
    if (parts[0]?.startLine !== 1 || parts.at(-1)?.endLine !== file.lineCount)
      problems.push(`${file.path} not covered to its ends`);
    for (let k = 1; k < parts.length; k++) {
      const [before, part] = [parts[k - 1]!, parts[k]!];
      if (part.startLine > before.endLine + 1)
        problems.push(`${file.path}: gap before line ${part.startLine}`);
      if (part.startLine <= before.startLine || part.endLine <= before.endLine)
        problems.push(`${file.path}: parts out of order`);
      if (before.endLine - part.startLine + 1 > SPLIT_OVERLAP_LINES)
        problems.push(`${file.path}: overlap too long`);
      if (k >= 2 && part.startLine <= parts[k - 2]!.endLine)
        problems.push(`${file.path}: overlaps a non-adjacent part`);
      if (part.chunk < before.chunk) problems.push(`${file.path}: parts not in chunk order`);
    }
  }
  const order = plan.chunks.flatMap((chunk) => chunk.parts.map((part) => part.path));
  for (let k = 1; k < order.length; k++) {
    if (comparePathsByDirectory(order[k - 1]!, order[k]!) > 0)
      problems.push(`path order broken at ${order[k]}`);
  }
  for (let k = 1; k < plan.chunks.length; k++) {
    // Neighbours were merged whenever they fit, so no two neighbours fit together.
    if (plan.chunks[k - 1]!.tokens + plan.chunks[k]!.tokens <= plan.budgetTokens)
      problems.push(`chunks ${k - 1} and ${k} would fit together`);
  }
  return problems;
}

/** The file as a scan that kept no per-line counts would give it. */
function withoutLineTokens(file: ChunkableFile): ChunkableFile {
  delete file.lineTokens;
  return file;
}

/** A random file set of one of several shapes, sized against the budget. */
function makeFileSet(random: () => number, budgetTokens: number): ChunkableFile[] {
  const shape = pick(['tiny', 'edges', 'huge', 'lumpy', 'mixed'] as const, random);
  const directories = ['', 'src/', 'src/a/', 'src/b/', 'test/', 'docs/deep/er/'];
  const files = new Map<string, ChunkableFile>();
  const add = (tokens: number) => {
    const path = `${pick(directories, random)}${shape}-${files.size}.ts`;
    files.set(path, makeFile(path, Math.max(1, tokens), random));
  };
  const count = 1 + Math.floor(random() * 60);
  if (shape === 'lumpy') {
    // Lines of wildly different sizes, some a third of the budget: parts hold few lines each.
    const path = `src/lumpy-${count}.ts`;
    const lineTokens = Array.from(
      { length: 5 + count },
      () => 1 + Math.floor(random() ** 3 * (budgetTokens / 3)),
    );
    const tokens = lineTokens.reduce((sum, value) => sum + value, 0);
    files.set(path, {
      ...makeFile(path, tokens, random),
      tokens,
      lineCount: lineTokens.length,
      lineTokens,
    });
  }
  for (let i = 0; i < count; i++) {
    if (shape === 'tiny') add(1 + Math.floor(random() * 40));
    // Around the point where header plus body crosses the budget.
    else if (shape === 'edges') add(budgetTokens - 40 + Math.floor(random() * 80));
    else if (shape === 'huge' || shape === 'lumpy')
      add(i === 0 ? budgetTokens * (3 + Math.floor(random() * 20)) : Math.floor(random() * 500));
    else add(Math.floor(Math.exp(random() * Math.log(budgetTokens * 3))));
  }
  return [...files.values()];
}

describe('planChunks', () => {
  it('never exceeds the budget and covers every line, over 300 seeded random file sets', () => {
    let splitFiles = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const options = optionsFor(pick([800, 3000, 20_000, 64_000], random), pick([1, 1.3], random));
      const files = makeFileSet(random, chunkBudgetTokens(options.chunkTokens, options.headroom));
      const plan = planChunks(files, options);
      splitFiles += new Set(
        plan.chunks.flatMap((chunk) =>
          chunk.parts.filter((part) => part.isSplit).map((part) => part.path),
        ),
      ).size;
      expect({ seed, problems: findPlanProblems(files, plan) }).toEqual({ seed, problems: [] });
    }
    expect(splitFiles).toBeGreaterThan(100);
  });

  it('computes the budget as floor(chunkTokens / headroom) and rejects an unusable one', () => {
    expect(planChunks([], optionsFor(64_000, 1.3)).budgetTokens).toBe(49_230);
    expect(planChunks([], optionsFor(64_000, 1)).budgetTokens).toBe(64_000);
    expect(chunkBudgetTokens(10, 3)).toBe(3);
    expect(() => chunkBudgetTokens(0, 1)).toThrow(RangeError);
    expect(() => chunkBudgetTokens(64_000, 0)).toThrow(RangeError);
    expect(() => chunkBudgetTokens(64_000, Number.NaN)).toThrow(RangeError);
  });

  it('puts a small repository in one chunk with plain headers', () => {
    const random = seededRandom(3);
    const files = [
      makeFile('b.ts', 50, random),
      makeFile('src/a.ts', 80, random),
      makeFile('README.md', 30, random),
    ];
    const plan = planChunks(files, optionsFor(64_000, 1.3));
    expect(plan.chunks).toHaveLength(1);
    expect(plan.chunks[0]!.parts.map((part) => formatPartHeader(part))).toEqual([
      '=== README.md ===',
      '=== b.ts ===',
      '=== src/a.ts ===',
    ]);
  });

  it('labels the parts of a split file with their line ranges, overlapping by SPLIT_OVERLAP_LINES', () => {
    const random = seededRandom(4);
    const big = makeFile('src/big.ts', 10_000, random);
    const plan = planChunks([big], optionsFor(3000));
    const parts = plan.chunks.flatMap((chunk) => chunk.parts);
    expect(parts.length).toBeGreaterThanOrEqual(4);
    expect(parts.every((part) => part.isSplit)).toBe(true);
    expect(formatPartHeader(parts[0]!)).toBe(`=== src/big.ts (lines 1-${parts[0]!.endLine}) ===`);
    expect(parts[1]!.startLine).toBe(parts[0]!.endLine - SPLIT_OVERLAP_LINES + 1);
    expect(parts.at(-1)!.endLine).toBe(big.lineCount);
    // Near-equal shares: no part is much smaller than the largest (the last takes the rest).
    const sizes = parts.slice(0, -1).map((part) => part.tokens);
    expect(Math.min(...sizes)).toBeGreaterThan(Math.max(...sizes) * 0.8);
  });

  it('reports a file with a line longer than the budget and still chunks the others', () => {
    const random = seededRandom(5);
    const wide = makeFile('src/wide.ts', 5000, random);
    wide.lineTokens![6] = 4000;
    wide.tokens = wide.lineTokens!.reduce((sum, value) => sum + value, 0);
    const other = makeFile('src/ok.ts', 200, random);
    const plan = planChunks([wide, other], optionsFor(3000));
    expect(plan.oversized).toEqual([{ path: 'src/wide.ts', line: 7 }]);
    expect(plan.chunks.flatMap((chunk) => chunk.parts.map((part) => part.path))).toEqual([
      'src/ok.ts',
    ]);
  });

  it('throws when a file that needs splitting lacks lineTokens, and not when it fits', () => {
    const random = seededRandom(6);
    const fits = withoutLineTokens(makeFile('src/fits.ts', 500, random));
    expect(planChunks([fits], optionsFor(3000)).chunks).toHaveLength(1);
    const tooBig = withoutLineTokens(makeFile('src/big.ts', 5000, random));
    expect(() => planChunks([tooBig], optionsFor(3000))).toThrow(
      /src\/big\.ts needs splitting but has no lineTokens/,
    );
    const wrongLength = { ...makeFile('src/bad.ts', 5000, random), lineTokens: [1, 2, 3] };
    expect(() => planChunks([wrongLength], optionsFor(3000))).toThrow(/3 line counts/);
  });

  it('throws on a duplicate path', () => {
    const random = seededRandom(7);
    expect(() =>
      planChunks([makeFile('a.ts', 5, random), makeFile('a.ts', 9, random)], optionsFor(3000)),
    ).toThrow(/duplicate path a\.ts/);
  });

  it('is deterministic and independent of input order', () => {
    const random = seededRandom(8);
    const files = makeRandomTree(random, 200, 20);
    const ids = planChunks(files, optionsFor(64_000, 1.3)).chunks.map((chunk) => chunk.id);
    expect(ids.length).toBeGreaterThan(3);
    const shuffled = [...files].sort(() => random() - 0.5);
    expect(planChunks(shuffled, optionsFor(64_000, 1.3)).chunks.map((chunk) => chunk.id)).toEqual(
      ids,
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^[0-9a-f]{64}$/.test(id))).toBe(true);
  });

  it('gives the same id to the same content and a new id when content changes', () => {
    const random = seededRandom(9);
    const files = [makeFile('a.ts', 100, random), makeFile('b.ts', 100, random)];
    const [chunk] = planChunks(files, optionsFor(64_000)).chunks;
    const [sameContent] = planChunks(
      files.map((file) => ({ ...file, riskScore: file.riskScore + 5 })),
      optionsFor(64_000),
    ).chunks;
    expect(sameContent!.id).toBe(chunk!.id);
    const [edited] = planChunks(
      [files[0]!, { ...files[1]!, contentHash: 'f'.repeat(64) }],
      optionsFor(64_000),
    ).chunks;
    expect(edited!.id).not.toBe(chunk!.id);
  });

  it('sums the riskScore of its parts', () => {
    const random = seededRandom(10);
    const files = [
      { ...makeFile('a.ts', 100, random), riskScore: 3 },
      { ...makeFile('b.ts', 100, random), riskScore: 4 },
    ];
    expect(planChunks(files, optionsFor(64_000)).chunks[0]!.riskScore).toBe(7);
  });

  it('keeps a file whole exactly when header, body and boundary allowance fit', () => {
    const random = seededRandom(11);
    const budget = chunkBudgetTokens(3000, 1);
    const path = 'src/edge.ts';
    const room = budget - headerTokens(path, 1, 1, false) - PART_BOUNDARY_TOKENS;
    const file = makeFile(path, 2000, random);
    const sized = (tokens: number): ChunkableFile => ({ ...file, tokens });
    expect(planChunks([sized(room)], optionsFor(3000)).chunks[0]!.parts[0]!.isSplit).toBe(false);
    expect(planChunks([sized(room)], optionsFor(3000)).chunks[0]!.tokens).toBe(budget);
    expect(planChunks([sized(room + 1)], optionsFor(3000)).chunks[0]!.parts[0]!.isSplit).toBe(true);
  });
});

describe('needsLineTokens', () => {
  it('answers true for every file that planChunks would split', () => {
    const random = seededRandom(12);
    for (let i = 0; i < 2000; i++) {
      const budget = pick([500, 3000, 49_230], random);
      const path = `${pick(['', 'src/', 'a/very/long/directory/name/with/ünïcode/'], random)}f${i}.ts`;
      const tokens = budget - 80 + Math.floor(random() * 100);
      const file = withoutLineTokens(makeFile(path, tokens, random));
      if (!needsLineTokens(path, file.tokens, budget)) {
        expect(() => planChunks([file], optionsFor(budget))).not.toThrow();
      }
    }
  });

  it('answers false for a file well within the budget', () => {
    expect(needsLineTokens('src/a.ts', 1000, 49_230)).toBe(false);
    expect(needsLineTokens('src/a.ts', 49_230, 49_230)).toBe(true);
  });
});
