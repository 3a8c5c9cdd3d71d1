import { createDeadlineWorker, WorkerTimeout } from '../deadline-worker.js';
import { ToolFailure } from '../tool-types.js';

export type ReplaceMode = 'regex' | 'literal';

/** Wall time one `replace` may spend matching, all files together: a pathological regex stops here. */
export const REPLACE_TIME_BUDGET_MS = 20_000;

/** A pattern and replacement ready to apply to each file's text, in turn. */
export interface Replacement {
  /** The mode actually used: an invalid regex with no mode given falls back to literal. */
  mode: ReplaceMode;
  /** The new text and how many matches were replaced; ToolFailure for an empty match or past the budget. */
  apply(text: string, shownPath: string): Promise<{ text: string; count: number }>;
  close(): Promise<void>;
}

interface RegexAnswer {
  text: string;
  count: number;
  isEmptyMatch: boolean;
}

// Plain JavaScript evaluated in the worker, so it runs the same from source (tests) and from dist.
const REGEX_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.source, 'gm');
parentPort.on('message', ({ text }) => {
  let count = 0;
  for (const match of text.matchAll(regex)) {
    if (match[0] === '') return parentPort.postMessage({ text, count, isEmptyMatch: true });
    count += 1;
  }
  const replaced = count === 0 ? text : text.replace(regex, workerData.replacement);
  parentPort.postMessage({ text: replaced, count, isEmptyMatch: false });
});
`;

/**
 * Compiles `replace`'s pattern. Regex mode uses JavaScript syntax with the `g` and `m` flags (so
 * `^`/`$` match at line ends) and JavaScript replacement syntax (`$1`, `$<name>`, `$&`, `$$`), and
 * runs in a worker with a deadline. Literal mode replaces the exact text, inserted as is.
 */
export function compileReplacement(
  pattern: string,
  replacement: string,
  mode: ReplaceMode | undefined,
  now: () => number = Date.now,
): Replacement {
  if (pattern === '') throw new ToolFailure('pattern is empty');
  if (mode === 'literal') return literal(pattern, replacement);
  try {
    new RegExp(pattern, 'gm');
  } catch (error) {
    // As in search: without an explicit mode, text that is not a valid regex is meant literally.
    if (mode === undefined) return literal(pattern, replacement);
    throw new ToolFailure(`pattern is not a valid regular expression: ${(error as Error).message}`);
  }
  const worker = createDeadlineWorker(REGEX_WORKER_SOURCE, { source: pattern, replacement });
  const deadline = now() + REPLACE_TIME_BUDGET_MS;
  const tooSlow = `matching took more than ${REPLACE_TIME_BUDGET_MS / 1000} s (a regex with nested repetition can backtrack forever); simplify the pattern or narrow path or glob`;
  return {
    mode: 'regex',
    async apply(text, shownPath) {
      const timeLeftMs = deadline - now();
      if (timeLeftMs <= 0) throw new ToolFailure(tooSlow);
      let answer: RegexAnswer;
      try {
        answer = await worker.request<RegexAnswer>({ text }, timeLeftMs);
      } catch (error) {
        if (error instanceof WorkerTimeout) throw new ToolFailure(tooSlow);
        throw error;
      }
      // An empty match would insert the replacement between every pair of characters.
      if (answer.isEmptyMatch)
        throw new ToolFailure(
          `pattern matches empty text in ${shownPath}; use a pattern that matches at least one character`,
        );
      return { text: answer.text, count: answer.count };
    },
    close: () => worker.close(),
  };
}

function literal(pattern: string, replacement: string): Replacement {
  return {
    mode: 'literal',
    async apply(text) {
      const parts = text.split(pattern);
      return { text: parts.join(replacement), count: parts.length - 1 };
    },
    close: async () => undefined,
  };
}
