import type { Chunk, ChunkPart, ChunkableFile } from '../types.js';
import { chunkId } from './chunk-id.js';
import { comparePathsByDirectory } from './compare-paths-by-directory.js';
import { formatPartHeader } from './format-part-header.js';
import { groupByWeakestGaps, type PackItem } from './group-by-weakest-gaps.js';
import { PART_BOUNDARY_TOKENS } from './render-part.js';
import { splitFile } from './split-file.js';

export interface ChunkPlanOptions {
  /** Provider tokens per chunk (`--chunk-tokens`). */
  chunkTokens: number;
  /** Provider tokens per tokenizer token: 1.3 for Claude (tiktoken only estimates it), 1.0 for OpenAI-compatible. */
  headroom: number;
  /** Tokenizer count of a header line. */
  countTokens(text: string): number;
}

/** A file left out of every chunk because one of its lines alone exceeds the budget. */
export interface OversizedLine {
  path: string;
  /** 1-based. */
  line: number;
}

export interface ChunkPlan {
  /** In path order; see `orderChunksByRisk` for the review order. */
  chunks: Chunk[];
  oversized: OversizedLine[];
  /** Tokenizer tokens per chunk, headers included: floor(chunkTokens / headroom). */
  budgetTokens: number;
}

interface PlannedPart extends PackItem {
  part: ChunkPart;
  riskScore: number;
}

/** The tokenizer-token budget of one chunk. */
export function chunkBudgetTokens(chunkTokens: number, headroom: number): number {
  const budget = Math.floor(chunkTokens / headroom);
  if (!Number.isFinite(budget) || budget < 1 || headroom <= 0) {
    throw new RangeError(
      `chunk budget must be at least 1 token, got chunkTokens ${chunkTokens} / headroom ${headroom}`,
    );
  }
  return budget;
}

/**
 * Whether a file of `tokens` tokens might not travel whole, so the scan must keep its
 * per-line counts for `planChunks`. Uses the header's UTF-8 length, which no token count
 * can exceed, so it never answers false for a file that `planChunks` would split.
 */
export function needsLineTokens(path: string, tokens: number, budgetTokens: number): boolean {
  const headerBytes = Buffer.byteLength(
    `${formatPartHeader({ path, startLine: 1, endLine: 1, isSplit: false })}\n`,
  );
  return tokens + headerBytes + PART_BOUNDARY_TOKENS > budgetTokens;
}

/**
 * Packs files into chunks of at most `budgetTokens` tokens each, headers included.
 * Deterministic and stable: files keep directory-grouped path order, files too big for one
 * chunk are split at line boundaries (`splitFile`), and neighbours are merged across the
 * weakest gaps first (`groupByWeakestGaps`), so editing one file usually changes only the
 * chunk that holds it, or that chunk and one neighbour.
 */
export function planChunks(files: readonly ChunkableFile[], options: ChunkPlanOptions): ChunkPlan {
  const budgetTokens = chunkBudgetTokens(options.chunkTokens, options.headroom);
  const sorted = [...files].sort((a, b) => comparePathsByDirectory(a.path, b.path));
  const items: PlannedPart[] = [];
  const oversized: OversizedLine[] = [];
  for (const [index, file] of sorted.entries()) {
    if (index > 0 && sorted[index - 1]!.path === file.path) {
      throw new Error(`planChunks: duplicate path ${file.path}`);
    }
    const range = { path: file.path, startLine: 1, endLine: file.lineCount, isSplit: false };
    const headerTokens = options.countTokens(`${formatPartHeader(range)}\n`);
    const whole: ChunkPart = {
      ...range,
      tokens: headerTokens + file.tokens + PART_BOUNDARY_TOKENS,
      contentHash: file.contentHash,
    };
    if (whole.tokens <= budgetTokens) {
      items.push(toItem(whole, file.riskScore));
      continue;
    }
    const split = splitFile(file, budgetTokens, options.countTokens);
    if ('oversizedLine' in split) oversized.push({ path: file.path, line: split.oversizedLine });
    else for (const part of split.parts) items.push(toItem(part, file.riskScore));
  }

  const chunks = groupByWeakestGaps(items, budgetTokens).map((group): Chunk => {
    const parts = group.map((item) => item.part);
    return {
      id: chunkId(parts),
      parts,
      tokens: group.reduce((sum, item) => sum + item.tokens, 0),
      riskScore: group.reduce((sum, item) => sum + item.riskScore, 0),
    };
  });
  const overBudget = chunks.find((chunk) => chunk.tokens > budgetTokens);
  if (overBudget) {
    throw new Error(
      `planChunks: chunk ${overBudget.id} has ${overBudget.tokens} tokens, budget ${budgetTokens}`,
    );
  }
  return { chunks, oversized, budgetTokens };
}

function toItem(part: ChunkPart, riskScore: number): PlannedPart {
  return {
    path: part.path,
    key: `${part.path}\u0000${part.startLine}`,
    tokens: part.tokens,
    part,
    riskScore,
  };
}
