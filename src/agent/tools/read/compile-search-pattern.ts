import { ToolFailure } from '../tool-types.js';

/** What the match worker looks for: a regular expression's source, or a literal string. */
export type SearchPattern = { kind: 'regex'; source: string } | { kind: 'literal'; text: string };

export interface CompiledSearch {
  pattern: SearchPattern;
  /** Set when a regex did not compile and the pattern is searched for literally instead. */
  note?: string;
}

/**
 * Compiles the model's pattern. Without a mode it is a regex, searched literally when it does not
 * compile (with a note saying so); with mode `regex` an invalid pattern is a failure.
 */
export function compileSearchPattern(
  pattern: string,
  mode: 'regex' | 'literal' | undefined,
): CompiledSearch {
  if (mode === 'literal') return { pattern: { kind: 'literal', text: pattern } };
  try {
    new RegExp(pattern);
    return { pattern: { kind: 'regex', source: pattern } };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    // Asked for a regex by name, the model wants to know its mistake rather than get other results.
    if (mode === 'regex')
      throw new ToolFailure(`pattern is not a valid regular expression: ${why}`);
    return {
      pattern: { kind: 'literal', text: pattern },
      note: `the pattern is not a valid regular expression (${why}), so it was searched for literally`,
    };
  }
}
