import type { Colors } from '../terminal.js';

/**
 * Keywords of the languages a coding assistant shows most (TypeScript/JavaScript, Python, Go, Rust,
 * shell, Java/C-family); one set for all, since a keyword of one language is rarely an identifier in another.
 */
const KEYWORDS: ReadonlySet<string> = new Set(
  (
    'abstract as async await break case catch class const continue def default defer del do elif else ' +
    'enum except export extends false fi finally fn for from func function go if impl implements import ' +
    'in interface is let loop match mod module mut new nil None not null or package pass private ' +
    'protected pub public raise readonly return self static struct super switch then this throw throws ' +
    'trait true True False try type typeof undefined use var void while with yield done esac local echo'
  ).split(' '),
);

/** Languages whose line comments start with `#` (the others use `//`). */
const HASH_COMMENT_LANGUAGES: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'shell',
  'zsh',
  'console',
  'python',
  'py',
  'ruby',
  'rb',
  'yaml',
  'yml',
  'toml',
  'dockerfile',
  'makefile',
  'perl',
  'r',
  'ini',
]);

/** Strings, comments, numbers and words, in the order they are tried at each position. */
const TOKEN =
  /("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(\/\*.*?(?:\*\/|$))|(\b\d[\d_]*(?:\.\d+)?\b)|([A-Za-z_$][\w$]*)/gu;

/**
 * Colours one line of a fenced code block: keywords magenta, strings green, comments dim, numbers
 * yellow. Line by line, so a string or block comment spanning lines is coloured on its first line only.
 */
export function highlightCodeLine(line: string, language: string, c: Colors): string {
  const commentStart = findLineComment(line, HASH_COMMENT_LANGUAGES.has(language) ? '#' : '//');
  const code = commentStart === -1 ? line : line.slice(0, commentStart);
  const comment = commentStart === -1 ? '' : c.dim(line.slice(commentStart));
  const coloured = code.replace(
    TOKEN,
    (match, text?: string, block?: string, number?: string, word?: string) => {
      if (text !== undefined) return c.green(match);
      if (block !== undefined) return c.dim(match);
      if (number !== undefined) return c.yellow(match);
      if (word !== undefined && KEYWORDS.has(word)) return c.magenta(match);
      return match;
    },
  );
  return coloured + comment;
}

/** Where a line comment starts, outside any string; -1 when there is none. */
function findLineComment(line: string, marker: string): number {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quote !== undefined) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') quote = char;
    else if (line.startsWith(marker, index)) {
      // `#` starts a comment only at the start of a word (not `$#` or `a#b`); `//` not in `http://`.
      const before = index === 0 ? ' ' : line[index - 1]!;
      if (marker === '#' ? /\s/u.test(before) : before !== ':') return index;
    }
  }
  return -1;
}
