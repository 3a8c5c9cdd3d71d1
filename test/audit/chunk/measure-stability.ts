import { planChunks, type ChunkPlanOptions } from '../../../src/audit/chunk/plan-chunks.js';
import type { ChunkableFile } from '../../../src/audit/types.js';
import { editFile, makeFile, makeRandomTree, pick } from './random-tree.js';
import { seededRandom } from '../../support/seeded-random.js';

export interface StabilityResult {
  /** Changed chunk ids per edit of a file that fits one chunk: count -> edits. */
  editHistogram: Record<number, number>;
  /** The same for edits of files split across chunks (every part's id changes). */
  splitEditHistogram: Record<number, number>;
  addRemoveHistogram: Record<number, number>;
  averageFill: number;
  averageChunks: number;
}

/** Chunk ids of `after` that `before` did not have: the map calls a warm cache would still make. */
export function countNewChunkIds(
  before: readonly ChunkableFile[],
  after: readonly ChunkableFile[],
  options: ChunkPlanOptions,
): number {
  const old = new Set(planChunks(before, options).chunks.map((chunk) => chunk.id));
  return planChunks(after, options).chunks.filter((chunk) => !old.has(chunk.id)).length;
}

/**
 * Plans `trees` seeded random trees, then for each applies `editsPerTree` single-file edits
 * (size scaled by 1% to 50% up or down) and `addRemovePerTree` file additions or removals,
 * and counts how many chunk ids each change creates.
 */
export function measureStability(
  options: ChunkPlanOptions,
  trees: number,
  editsPerTree: number,
  addRemovePerTree: number,
): StabilityResult {
  const result: StabilityResult = {
    editHistogram: {},
    splitEditHistogram: {},
    addRemoveHistogram: {},
    averageFill: 0,
    averageChunks: 0,
  };
  const bump = (histogram: Record<number, number>, key: number) =>
    (histogram[key] = (histogram[key] ?? 0) + 1);
  for (let tree = 1; tree <= trees; tree++) {
    const random = seededRandom(tree * 7919);
    const files = makeRandomTree(random);
    const base = planChunks(files, options);
    const baseIds = new Set(base.chunks.map((chunk) => chunk.id));
    const totalTokens = base.chunks.reduce((sum, chunk) => sum + chunk.tokens, 0);
    result.averageFill += totalTokens / (base.chunks.length * base.budgetTokens) / trees;
    result.averageChunks += base.chunks.length / trees;
    const newIds = (after: ChunkableFile[]) =>
      planChunks(after, options).chunks.filter((chunk) => !baseIds.has(chunk.id)).length;

    for (let edit = 1; edit <= editsPerTree; edit++) {
      const index = Math.floor(random() * files.length);
      const file = files[index]!;
      const factor = 1 + (random() < 0.5 ? -1 : 1) * (0.01 + 0.49 * random());
      const after = files.with(index, editFile(file, factor, random, edit));
      const wasSplit = base.chunks.some((chunk) =>
        chunk.parts.some((part) => part.path === file.path && part.isSplit),
      );
      bump(wasSplit ? result.splitEditHistogram : result.editHistogram, newIds(after));
    }
    for (let change = 1; change <= addRemovePerTree; change++) {
      let after: ChunkableFile[];
      if (change % 2 === 0) {
        after = files.toSpliced(Math.floor(random() * files.length), 1);
      } else {
        const directory = pick(files, random).path.replace(/[^/]+$/, '');
        after = [
          ...files,
          makeFile(`${directory}added-${change}.ts`, 100 + Math.floor(random() * 4000), random),
        ];
      }
      bump(result.addRemoveHistogram, newIds(after));
    }
  }
  return result;
}
