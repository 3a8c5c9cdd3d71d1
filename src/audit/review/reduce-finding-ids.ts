import type { Finding } from '../types.js';

/**
 * The short ids the reduce call uses for findings: `F1`, `F2`... by position, so a prompt with
 * thousands of findings spends few characters on ids. The prompt and `applyReduce` must see the
 * same array.
 */
export function reduceFindingIds(findings: readonly Finding[]): string[] {
  return findings.map((_finding, index) => `F${index + 1}`);
}
