import { randomBytes } from 'node:crypto';

// 16 random bytes (128 bits): no repository can guess the marker that closes its own data block.
const DELIMITER_RANDOM_BYTES = 16;
// Each attempt collides with the texts only if they already hold this run's random marker.
const MAX_DELIMITER_ATTEMPTS = 8;

export type RandomBytes = (size: number) => Buffer;

/**
 * A per-run marker such as `=====OY-DATA-<32 hex>=====` that fences the data in a map prompt.
 * It occurs in none of `texts` (the chunks of the run): a candidate found in one is drawn again.
 */
export function createDelimiter(
  texts: Iterable<string>,
  random: RandomBytes = randomBytes,
): string {
  const checked = [...texts];
  for (let attempt = 0; attempt < MAX_DELIMITER_ATTEMPTS; attempt++) {
    const delimiter = `=====OY-DATA-${random(DELIMITER_RANDOM_BYTES).toString('hex')}=====`;
    if (!checked.some((text) => text.includes(delimiter))) return delimiter;
  }
  throw new Error(
    `could not draw a data delimiter absent from the reviewed text in ${MAX_DELIMITER_ATTEMPTS} attempts`,
  );
}
