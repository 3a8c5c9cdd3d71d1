/** One word of a command, with quotes taken out, and where each of its characters stands. */
export interface CommandWord {
  text: string;
  /** Original index of each character of `text`. */
  offsets: readonly number[];
}

// A command is read this far at most, and over this many continued lines.
const MAX_COMMAND_CHARS = 4096;
const MAX_WORDS = 64;

/**
 * The words of the shell command whose arguments start at `from`: blanks separate words, quotes
 * group them, `\` escapes a character and a line break after it continues the command; an
 * unquoted `;`, `&`, `|`, `(`, `)`, `` ` ``, `<`, `>` or line break ends it, and `#` at a word's
 * start begins a comment. A command inside a string literal (`"mysql -p…"`, `'ssh … mysql -p…'`)
 * ends at `closer`, the literal's quote, and a quote with no partner on its line ends a word:
 * it closes an enclosing literal, and reading on would take in the lines after it.
 */
export function readShellWords(
  text: string,
  from: number,
  closer = '',
  limits: { words: number; chars: number } = { words: MAX_WORDS, chars: MAX_COMMAND_CHARS },
): CommandWord[] {
  const words: CommandWord[] = [];
  const end = Math.min(text.length, from + limits.chars);
  const fold = foldedLineStart(text, from);
  let index = from;
  while (index < end && words.length < limits.words) {
    const char = text[index] ?? '';
    if (char === ' ' || char === '\t' || char === '\r') {
      index += 1;
      continue;
    }
    if (char === '\\' && text[index + 1] === '\n') {
      index += 2;
      continue;
    }
    // In a YAML folded scalar (`run: >`) a line break before a line of the same indent is a blank.
    if (char === '\n' && fold !== undefined && text.startsWith(fold, index + 1)) {
      const next = text[index + 1 + fold.length] ?? '';
      if (next !== ' ' && next !== '\t' && next !== '\n' && next !== '\r' && next !== '') {
        index += 1 + fold.length;
        continue;
      }
    }
    if (char === '\n' || char === '#' || char === closer || ';&|()`<>'.includes(char)) break;
    const word = { text: '', offsets: [] as number[] };
    const after = readWord(text, index, end, word, closer);
    // A quote with no partner, where a word would start, ends the command.
    if (after === index) break;
    index = after;
    words.push(word);
  }
  return words;
}

// How far back a folded scalar's header (`run: >`) is looked for, in lines.
const MAX_FOLDED_LINES = 32;

/**
 * The indent of the line holding `at` when that line is in a YAML folded block scalar (a line
 * ending `>`, `>-` or `>+` above it, less indented, with only lines of this indent between).
 */
function foldedLineStart(text: string, at: number): string | undefined {
  let lineStart = lineStartBefore(text, at);
  if (lineStart === undefined) return undefined;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, lineStart + 256))?.[0] ?? '';
  if (indent === '') return undefined;
  for (let lines = 0; lines < MAX_FOLDED_LINES && lineStart > 0; lines += 1) {
    const previousStart = lineStartBefore(text, lineStart - 1);
    if (previousStart === undefined) return undefined;
    const previous = text.slice(previousStart, lineStart - 1).replace(/\r$/, '');
    if (!previous.startsWith(indent))
      return /:[ \t]*>[-+]?[ \t]*$/.test(previous) ? indent : undefined;
    lineStart = previousStart;
  }
  return undefined;
}

/**
 * Where the line holding `at` starts, looked for within a command's reach: a longer line (a
 * minified file) is no folded scalar's, and reading back over all of it for each command on it
 * would cost the square of its length.
 */
function lineStartBefore(text: string, at: number): number | undefined {
  const from = Math.max(0, at - MAX_COMMAND_CHARS);
  const newline = text.slice(from, at).lastIndexOf('\n');
  if (newline !== -1) return from + newline + 1;
  return from === 0 ? 0 : undefined;
}

/** Reads one word into `word` from `index`; returns the index after it. */
function readWord(
  text: string,
  index: number,
  end: number,
  word: { text: string; offsets: number[] },
  closer: string,
): number {
  let quote = '';
  for (; index < end; index += 1) {
    const char = text[index] ?? '';
    if (quote !== '') {
      if (char === quote) quote = '';
      else if (char === '\\' && quote === '"' && index + 1 < end) {
        index += 1;
        push(word, text[index] ?? '', index);
      } else push(word, char, index);
      continue;
    }
    if (char === closer) break;
    if (char === '"' || char === "'") {
      if (!closesOnLine(text, index, end)) break;
      quote = char;
    } else if (char === '\\' && index + 1 < end && text[index + 1] !== '\n') {
      index += 1;
      push(word, text[index] ?? '', index);
    } else if (/[\s;&|()`<>]/.test(char)) break;
    else push(word, char, index);
  }
  return index;
}

/** Whether the quote at `at` has its closing partner before the line ends. */
function closesOnLine(text: string, at: number, end: number): boolean {
  const quote = text[at];
  for (let index = at + 1; index < end; index += 1) {
    const char = text[index];
    if (char === quote) return true;
    if (char === '\n') return false;
    if (char === '\\' && quote === '"') index += 1;
  }
  return false;
}

function push(word: { text: string; offsets: number[] }, char: string, at: number): void {
  word.text += char;
  word.offsets.push(at);
}

/**
 * The words of an exec-form array after its first element closed at `from` (`["mysql", "-uroot",
 * "-psecret"]` in a Dockerfile or compose file): quoted elements separated by commas, to `]`.
 */
export function readArrayWords(text: string, from: number): CommandWord[] {
  const words: CommandWord[] = [];
  const element = /\s*,\s*(["'])((?:\\.|(?!\1)[^\\\n])*)\1/y;
  element.lastIndex = from;
  for (
    let match = element.exec(text);
    match !== null && words.length < MAX_WORDS;
    match = element.exec(text)
  ) {
    const body = match[2] ?? '';
    const bodyStart = element.lastIndex - 1 - body.length;
    words.push({ text: body, offsets: Array.from(body, (_, offset) => bodyStart + offset) });
  }
  return words;
}
