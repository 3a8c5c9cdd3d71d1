import { UsageError } from '../../shared/errors.js';
import { formatDuration, parseDuration } from '../../shared/text/parse-duration.js';
import type { ValueFlag } from './flag-spec.js';

/** A whole number in plain digits; a sign, an exponent, hex or spaces are not one. */
const WHOLE_NUMBER = /^-?\d+$/;
/** A plain decimal, possibly negative (so `-1` gets the range message, not "not a number"). */
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Turns one flag's text into its typed value, or a usage error that names the flag, what it takes, and an example. */
export function parseFlagValue(spec: ValueFlag, text: string): string | number {
  const flag = `--${spec.name}`;
  const hint = `for example ${spec.example}`;
  const got = `got \`${text}\``;
  switch (spec.kind) {
    case 'integer': {
      const { min, max } = spec.bounds;
      const number = Number(text);
      if (!WHOLE_NUMBER.test(text) || !Number.isSafeInteger(number) || number < min || number > max)
        throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, ${got}`, {
          hint,
        });
      return number;
    }
    case 'decimal': {
      const { min, max } = spec.bounds;
      const number = DECIMAL.test(text) ? Number(text) : Number.NaN;
      const isAboveMin = spec.exclusiveMin ? number > min : number >= min;
      if (!(isAboveMin && number <= max)) {
        const range = spec.exclusiveMin
          ? `above ${min} and at most ${max}`
          : `from ${min} to ${max}`;
        throw new UsageError(`${flag} must be ${spec.noun}, a number ${range}, ${got}`, { hint });
      }
      return number;
    }
    case 'duration': {
      const { min, max } = spec.bounds;
      const ms = parseDuration(text);
      if (ms === undefined || ms < min || ms > max)
        throw new UsageError(
          `${flag} must be a duration from ${formatDuration(min)} to ${formatDuration(max)} such as 30m, 2h or 1h30m, ${got}`,
          { hint },
        );
      return ms;
    }
    case 'choice': {
      const word = text.trim().toLowerCase();
      const choice = spec.choices.find((candidate) => candidate === word) ?? spec.aliases?.[word];
      if (choice === undefined)
        throw new UsageError(`${flag} must be one of ${spec.choices.join(', ')}, ${got}`, {
          hint:
            spec.aliases === undefined
              ? hint
              : `${hint}; also accepted: ${Object.keys(spec.aliases).join(', ')}`,
        });
      return choice;
    }
    case 'text':
      if (text.trim() === '') throw new UsageError(`${flag} needs a value, ${got}`, { hint });
      if (text === '-' && !spec.isStdoutAllowed)
        throw new UsageError(`${flag} does not take - (stdout), ${got}`, { hint });
      if (spec.isRef && text.startsWith('-'))
        throw new UsageError(`${flag} must name a git ref, ${got}`, {
          hint: `${hint}, or a commit id such as HEAD~3`,
        });
      return text;
  }
}
