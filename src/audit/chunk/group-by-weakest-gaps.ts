import { isSameDirectory, sharedDirectoryDepth } from './compare-paths-by-directory.js';

/** One slice to pack: its path, a key unique within the plan, and what it costs. */
export interface PackItem {
  path: string;
  key: string;
  tokens: number;
}

interface Gap {
  /** The gap lies after item `index`. */
  index: number;
  isSameDirectory: boolean;
  sharedDepth: number;
  hash: number;
}

/**
 * Packs items (in path order, each within the budget) into contiguous groups: neighbours are
 * merged across the weakest gaps first (inside a directory, then under the deepest shared
 * parent, then a hash of the key before the gap) whenever the merged group fits. A decision
 * looks only at the two groups beside its gap, so resizing one item rarely moves more than
 * its own group's edges; any two neighbouring groups together exceed the budget.
 */
export function groupByWeakestGaps<T extends PackItem>(
  items: readonly T[],
  budgetTokens: number,
): T[][] {
  const gaps: Gap[] = [];
  for (let index = 0; index + 1 < items.length; index++) {
    const left = items[index]!;
    const right = items[index + 1]!;
    gaps.push({
      index,
      isSameDirectory: isSameDirectory(left.path, right.path),
      sharedDepth: sharedDirectoryDepth(left.path, right.path),
      hash: hashText(left.key),
    });
  }
  gaps.sort(compareGapStrength);

  // Union-find over item indexes; each root knows its group's tokens and last index.
  const parent = items.map((_, index) => index);
  const tokens = items.map((item) => item.tokens);
  const lastIndex = items.map((_, index) => index);
  const find = (index: number): number => {
    let root = index;
    while (parent[root] !== root) root = parent[root]!;
    for (let at = index; parent[at] !== root;) {
      const next = parent[at]!;
      parent[at] = root;
      at = next;
    }
    return root;
  };
  for (const gap of gaps) {
    const left = find(gap.index);
    const right = find(gap.index + 1);
    if (tokens[left]! + tokens[right]! <= budgetTokens) {
      parent[right] = left;
      tokens[left]! += tokens[right]!;
      lastIndex[left] = lastIndex[right]!;
    }
  }

  const groups: T[][] = [];
  for (let start = 0; start < items.length;) {
    const end = lastIndex[find(start)]!;
    groups.push(items.slice(start, end + 1));
    start = end + 1;
  }
  return groups;
}

/** Weakest first: same directory, then the deepest shared parent, then the hash, then position. */
function compareGapStrength(a: Gap, b: Gap): number {
  if (a.isSameDirectory !== b.isSameDirectory) return a.isSameDirectory ? -1 : 1;
  if (a.sharedDepth !== b.sharedDepth) return b.sharedDepth - a.sharedDepth;
  if (a.hash !== b.hash) return a.hash - b.hash;
  return a.index - b.index;
}

/** FNV-1a, 32 bits: a stable, well-spread tie-break; nothing here needs a cryptographic hash. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
