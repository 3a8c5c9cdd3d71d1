import { FIXED_PREFIXES } from './model-id-prefixes.js';

/** Two edits covers a dropped, doubled or swapped letter (`antropic`, `opneai`) without matching unrelated words. */
const MAX_TYPO_DISTANCE = 2;

/** The known prefix a mistyped one most likely meant, or undefined when none is close. */
export function suggestPrefix(typed: string): string | undefined {
  const text = typed.toLowerCase();
  if (/^local[-_]?/.test(text)) return 'local-<port>';
  let best: { prefix: string; distance: number } | undefined;
  for (const prefix of FIXED_PREFIXES.keys()) {
    const distance = editDistance(text, prefix);
    if (distance <= MAX_TYPO_DISTANCE && (!best || distance < best.distance)) {
      best = { prefix, distance };
    }
  }
  return best?.prefix;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
  }
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}
