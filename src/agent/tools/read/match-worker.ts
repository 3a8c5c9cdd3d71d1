import { createDeadlineWorker } from '../deadline-worker.js';
import type { SearchPattern } from './compile-search-pattern.js';

/** One matching line: its 1-based number and its text, cut to a window around the match. */
export type LineHit = [line: number, text: string];

export interface MatchWorker {
  /** The first `maxHits` matching lines of `text`; rejects with WorkerTimeout past `timeoutMs`. */
  match(text: string, maxHits: number, timeoutMs: number): Promise<LineHit[]>;
  close(): Promise<void>;
}

/** Characters of a matching line returned: README.md "Tools" caps search lines at 1,000. */
export const MAX_HIT_CHARS = 1000;
/** Characters of each line tested: long enough for real code, short enough to bound one test. */
export const MAX_TESTED_LINE_CHARS = 10_000;

// Plain JavaScript evaluated in the worker, so it runs the same from source (tests) and from dist.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pattern, maxTested, maxShown } = workerData;
const regex = pattern.kind === 'regex' ? new RegExp(pattern.source) : null;
const find = (line) => (regex === null ? line.indexOf(pattern.text) : (regex.exec(line)?.index ?? -1));
const window = (line, index) => {
  if (line.length <= maxShown) return line;
  const start = Math.max(0, Math.min(index - 100, line.length - maxShown + 2));
  const head = start > 0 ? '…' : '';
  const tail = start + maxShown - 2 < line.length ? '…' : '';
  return head + line.slice(start, start + maxShown - 2) + tail;
};
parentPort.on('message', ({ text, maxHits }) => {
  const lines = text.split(/\\r?\\n/);
  if (lines.at(-1) === '') lines.pop();
  const hits = [];
  for (let i = 0; i < lines.length && hits.length < maxHits; i += 1) {
    const line = lines[i].length > maxTested ? lines[i].slice(0, maxTested) : lines[i];
    const index = find(line);
    if (index >= 0) hits.push([i + 1, window(line, index)]);
  }
  parentPort.postMessage(hits);
});
`;

/**
 * Runs the matching in a worker thread, so a pathological regex (catastrophic backtracking) is
 * stopped by terminating the worker at a deadline instead of freezing the agent's event loop.
 */
export function createMatchWorker(pattern: SearchPattern): MatchWorker {
  const worker = createDeadlineWorker(WORKER_SOURCE, {
    pattern,
    maxTested: MAX_TESTED_LINE_CHARS,
    maxShown: MAX_HIT_CHARS,
  });
  return {
    match: (text, maxHits, timeoutMs) => worker.request<LineHit[]>({ text, maxHits }, timeoutMs),
    close: () => worker.close(),
  };
}
