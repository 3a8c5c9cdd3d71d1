import type readline from 'node:readline';
import type { EditState } from './edit-buffer.js';
import { isPrintable } from './edit-keys.js';
import {
  extendQuery,
  searchOlder,
  searchResult,
  shortenQuery,
  type HistorySearch,
} from './history-search.js';

/** What a key does while Ctrl-R searches: go on searching, leave with an input, send, or leave and act as usual. */
export type SearchStep =
  | { kind: 'search'; search: HistorySearch }
  | { kind: 'leave'; edit: EditState }
  | { kind: 'submit'; text: string }
  | { kind: 'leave-then-key'; edit: EditState };

/**
 * A key during a search, as readline takes it: typed text narrows, Backspace widens, Ctrl-R steps
 * older, Enter sends the match (with no match it leaves with the input as it was), Esc and Ctrl-G
 * leave with the input as it was; any other key takes the match up and then acts.
 */
export function stepSearch(
  search: HistorySearch,
  entries: readonly string[],
  text: string | undefined,
  key: readline.Key,
): SearchStep {
  const isPlain = !key.ctrl && !key.meta;
  if (key.ctrl && key.name === 'r') return { kind: 'search', search: searchOlder(search, entries) };
  if ((key.ctrl && key.name === 'g') || key.name === 'escape')
    return { kind: 'leave', edit: search.original };
  if (isPlain && key.name === 'backspace')
    return { kind: 'search', search: shortenQuery(search, entries) };
  if (key.name === 'return' || key.name === 'enter') {
    const found = searchResult(search, entries);
    return found === search.original
      ? { kind: 'leave', edit: found }
      : { kind: 'submit', text: found.text };
  }
  if (isPlain && text !== undefined && isPrintable(text))
    return { kind: 'search', search: extendQuery(search, entries, text) };
  return { kind: 'leave-then-key', edit: searchResult(search, entries) };
}
