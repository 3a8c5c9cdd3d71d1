import { createHash } from 'node:crypto';
import type { ChunkableFile } from '../../../src/audit/types.js';

const DIRECTORY_WORDS = [
  'src',
  'lib',
  'test',
  'core',
  'util',
  'api',
  'cli',
  'db',
  'web',
  'auth',
  'net',
  'ui',
  'docs',
  'pkg',
];
// Median tokens of a source file, and the spread of the log-normal around it.
const MEDIAN_FILE_TOKENS = 1200;
const FILE_TOKENS_SIGMA = 1.2;
const MAX_FILE_TOKENS = 200_000;
const TOKENS_PER_LINE = 12;

/** A file with per-line counts that sum to its token count, as the scan would give it. */
export function makeFile(
  path: string,
  tokens: number,
  random: () => number,
  version = 0,
): ChunkableFile {
  const lineCount = Math.max(1, Math.round(tokens / TOKENS_PER_LINE));
  const weights = Array.from({ length: lineCount }, () => 0.2 + random());
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  const lineTokens = weights.map((weight) =>
    Math.max(1, Math.floor((weight / weightSum) * tokens)),
  );
  return {
    path,
    tokens: lineTokens.reduce((sum, value) => sum + value, 0),
    lineCount,
    contentHash: createHash('sha256')
      .update(`${path}\u0000${tokens}\u0000${version}`)
      .digest('hex'),
    lineTokens,
    riskScore: random() < 0.1 ? Math.floor(random() * 10) : 0,
  };
}

/** A seeded repository: `fileCount` files spread unevenly over `directoryCount` nested directories. */
export function makeRandomTree(
  random: () => number,
  fileCount = 500,
  directoryCount = 40,
): ChunkableFile[] {
  const directories = new Set<string>();
  while (directories.size < directoryCount) {
    const depth = 1 + Math.floor(random() * 3);
    const segments = Array.from(
      { length: depth },
      () => pick(DIRECTORY_WORDS, random) + (random() < 0.3 ? Math.floor(random() * 5) : ''),
    );
    directories.add(segments.join('/'));
  }
  const directoryList = [...directories];
  // Exponential weights give a few crowded directories and many small ones.
  const weights = directoryList.map(() => -Math.log(1 - random()));
  const files = new Map<string, ChunkableFile>();
  while (files.size < fileCount) {
    const directory = directoryList[weightedIndex(weights, random)]!;
    const path = `${directory}/f${Math.floor(random() * 100_000)}.ts`;
    if (!files.has(path)) files.set(path, makeFile(path, logNormalTokens(random), random));
  }
  return [...files.values()];
}

/** The same file after an edit that scales its size by `factor`. */
export function editFile(
  file: ChunkableFile,
  factor: number,
  random: () => number,
  version: number,
): ChunkableFile {
  const edited = makeFile(
    file.path,
    Math.max(1, Math.round(file.tokens * factor)),
    random,
    version,
  );
  return { ...edited, riskScore: file.riskScore };
}

export function pick<T>(values: readonly T[], random: () => number): T {
  return values[Math.floor(random() * values.length)]!;
}

function weightedIndex(weights: readonly number[], random: () => number): number {
  let remaining = random() * weights.reduce((sum, weight) => sum + weight, 0);
  for (const [index, weight] of weights.entries()) {
    remaining -= weight;
    if (remaining < 0) return index;
  }
  return weights.length - 1;
}

function logNormalTokens(random: () => number): number {
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.min(
    MAX_FILE_TOKENS,
    Math.max(20, Math.round(Math.exp(Math.log(MEDIAN_FILE_TOKENS) + FILE_TOKENS_SIGMA * normal))),
  );
}
