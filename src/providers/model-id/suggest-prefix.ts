import { editDistance } from '../../shared/text/edit-distance.js';
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
