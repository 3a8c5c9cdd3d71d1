/** How a wrapper's options are spelled: which take a value, which do not. */
export interface OptionSpec {
  /** Short options without a value, as one string of letters. */
  flags: string;
  /** Short options that take a value (`-u root`, `-uroot`). */
  valued: string;
  /** Long options without a value (`--login`); `--name=value` is refused for these. */
  longFlags?: readonly string[];
  /** Long options that take a value (`--user root`, `--user=root`). */
  longValued?: readonly string[];
  /** Long options whose value is optional and only ever attached with `=` (`--preserve-env[=list]`). */
  longOptional?: readonly string[];
}

export type ReadOptions =
  | { kind: 'read'; values: Map<string, string>; rest: string[] }
  | { kind: 'unknown'; option: string }
  | { kind: 'short'; option: string };

/**
 * Read leading options the way getopt does with "+" (stop at the first operand or `--`).
 * An option the spec does not know is `unknown`: whether it takes a value decides what runs, so the
 * caller treats the command as uncertain rather than guess. `short`: the words ran out mid-option.
 */
export function readOptions(spec: OptionSpec, words: readonly string[]): ReadOptions {
  const values = new Map<string, string>();
  let index = 0;
  while (index < words.length) {
    const word = words[index] ?? '';
    if (word === '--') return { kind: 'read', values, rest: words.slice(index + 1) };
    if (!word.startsWith('-') || word === '-') break;
    index += 1;
    if (word.startsWith('--')) {
      const [name = '', attached] = splitLong(word);
      if (spec.longFlags?.includes(name) === true && attached === undefined) {
        values.set(name, '');
      } else if (spec.longOptional?.includes(name) === true) {
        values.set(name, attached ?? '');
      } else if (spec.longValued?.includes(name) === true) {
        const value = attached ?? words[index];
        if (value === undefined) return { kind: 'short', option: word };
        if (attached === undefined) index += 1;
        values.set(name, value);
      } else {
        return { kind: 'unknown', option: word };
      }
      continue;
    }
    for (let at = 1; at < word.length; at += 1) {
      const letter = word[at] ?? '';
      if (spec.flags.includes(letter)) {
        values.set(`-${letter}`, '');
        continue;
      }
      if (!spec.valued.includes(letter)) return { kind: 'unknown', option: word };
      const attached = word.slice(at + 1);
      const value = attached === '' ? words[index] : attached;
      if (value === undefined) return { kind: 'short', option: word };
      if (attached === '') index += 1;
      values.set(`-${letter}`, value);
      break;
    }
  }
  return { kind: 'read', values, rest: words.slice(index) };
}

function splitLong(word: string): [string, string | undefined] {
  const equals = word.indexOf('=');
  return equals < 0 ? [word, undefined] : [word.slice(0, equals), word.slice(equals + 1)];
}
