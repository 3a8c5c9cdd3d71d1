/**
 * Edits that turn `a` into `b`: an insertion, a deletion, a substitution, or a swap of two
 * neighbouring characters each count one (optimal string alignment), so `audti` is one edit from
 * `audit`. Small strings only.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, index) => index)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** The name closest to `word` (case ignored) within `maxDistance` edits; the earlier name wins a tie. */
export function nearestName(
  word: string,
  names: readonly string[],
  maxDistance: number,
): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (distance <= maxDistance && (best === undefined || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}
