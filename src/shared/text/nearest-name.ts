import { editDistance } from './edit-distance.js';

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
