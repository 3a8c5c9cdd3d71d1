import { UsageError } from '../../shared/errors.js';
import { nearestName } from '../../shared/text/nearest-name.js';

/** Words this long or longer may be two edits from a command and still count as its typo. */
const LONG_WORD_LENGTH = 7;

/**
 * The `oy "prompt"` shorthand takes any words as a prompt, one word included (`oy hello`), except
 * a lone word that is a near-typo of a command: one edit (a letter added, dropped, changed or two
 * swapped) from a command name, two for words of seven letters or more. That is refused with the
 * command it probably meant (`oy audti`: did you mean oy audit?) instead of being sent to a model.
 */
export function refuseCommandLikeWord(words: readonly string[], commands: readonly string[]): void {
  const [word] = words;
  if (words.length !== 1 || word === undefined || !/^[\w.-]+$/u.test(word)) return;
  const maxDistance = word.length >= LONG_WORD_LENGTH ? 2 : 1;
  const closest = nearestName(
    word,
    commands.filter((name) => name !== ''),
    maxDistance,
  );
  if (closest === undefined) return;
  throw new UsageError(`unknown command "${word}"`, {
    hint: `did you mean oy ${closest}? For a one-word prompt, use oy run ${word}`,
  });
}
