import { UsageError } from '../../shared/errors.js';
import { editDistance } from '../../shared/text/edit-distance.js';

/** Edits within which a word counts as a mistyped command name. */
const MAX_TYPO_DISTANCE = 2;

/**
 * `oy "fix the bug"` and `oy fix the bug` are prompts; a single bare word is more likely a mistyped
 * or unknown command (`oy audti`), so it is refused with a suggestion instead of being sent to a model.
 */
export function refuseCommandLikeWord(words: readonly string[], commands: readonly string[]): void {
  const [word] = words;
  if (words.length !== 1 || word === undefined || !/^[\w.-]+$/u.test(word)) return;
  const closest = commands
    .map((name) => ({ name, distance: editDistance(word.toLowerCase(), name) }))
    .sort((a, b) => a.distance - b.distance)[0];
  const suggestion =
    closest !== undefined && closest.distance <= MAX_TYPO_DISTANCE
      ? `did you mean oy ${closest.name}? `
      : '';
  throw new UsageError(`unknown command "${word}"`, {
    hint: `${suggestion}run oy --help for the commands; for a one-word prompt, use oy run ${word}`,
  });
}
