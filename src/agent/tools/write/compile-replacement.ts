import { ToolFailure } from '../tool-types.js';

export type ReplaceMode = 'regex' | 'literal';

/** A pattern and replacement ready to apply to one file's text. */
export interface Replacement {
  /** The mode actually used: an invalid regex with no mode given falls back to literal. */
  mode: ReplaceMode;
  /** The new text and how many matches were replaced; throws ToolFailure for an empty match. */
  apply(text: string, shownPath: string): { text: string; count: number };
}

/**
 * Compiles `replace`'s pattern. Regex mode uses JavaScript syntax with the `g` and `m` flags (so
 * `^`/`$` match at line ends) and JavaScript replacement syntax (`$1`, `$<name>`, `$&`, `$$`).
 * Literal mode replaces the exact text, and the replacement is inserted as is.
 */
export function compileReplacement(
  pattern: string,
  replacement: string,
  mode: ReplaceMode | undefined,
): Replacement {
  if (pattern === '') throw new ToolFailure('pattern is empty');
  if (mode === 'literal') return literal(pattern, replacement);
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'gm');
  } catch (error) {
    // As in search: without an explicit mode, text that is not a valid regex is meant literally.
    if (mode === undefined) return literal(pattern, replacement);
    throw new ToolFailure(`pattern is not a valid regular expression: ${(error as Error).message}`);
  }
  return {
    mode: 'regex',
    apply(text, shownPath) {
      let count = 0;
      for (const match of text.matchAll(regex)) {
        // An empty match would insert the replacement between every pair of characters.
        if (match[0] === '')
          throw new ToolFailure(
            `pattern matches empty text in ${shownPath}; use a pattern that matches at least one character`,
          );
        count++;
      }
      return { text: count === 0 ? text : text.replace(regex, replacement), count };
    },
  };
}

function literal(pattern: string, replacement: string): Replacement {
  return {
    mode: 'literal',
    apply(text) {
      const parts = text.split(pattern);
      return { text: parts.join(replacement), count: parts.length - 1 };
    },
  };
}
