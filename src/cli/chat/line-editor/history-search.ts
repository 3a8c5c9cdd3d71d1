import { neutralizeControl } from '../../../shared/terminal/neutralize-control.js';
import type { EditState } from './edit-buffer.js';

/**
 * Ctrl-R: a reverse incremental search of the history, as readline does it. Each typed character
 * narrows the query, Ctrl-R again steps to an older match, Backspace widens the query again.
 * A query in lower case matches any case ("smart case"); one with a capital matches exactly.
 */
export interface HistorySearch {
  readonly query: string;
  /** The matching entry's index, or undefined before the first match. */
  readonly matchIndex: number | undefined;
  /** The last step found nothing: the older match stays shown, the prompt says `failed`. */
  readonly isFailing: boolean;
  /** The input before the search, put back when the search is left with Esc or Ctrl-G. */
  readonly original: EditState;
}

export function startSearch(original: EditState): HistorySearch {
  return { query: '', matchIndex: undefined, isFailing: false, original };
}

/** Adds typed text to the query and looks again from the current match back. */
export function extendQuery(
  search: HistorySearch,
  entries: readonly string[],
  typed: string,
): HistorySearch {
  return findFrom(search, entries, search.query + typed, search.matchIndex ?? entries.length - 1);
}

/** Backspace: the query without its last character, matched again from the newest entry. */
export function shortenQuery(search: HistorySearch, entries: readonly string[]): HistorySearch {
  const query = [...search.query].slice(0, -1).join('');
  if (query === '') return { ...search, query, matchIndex: undefined, isFailing: false };
  return findFrom(search, entries, query, entries.length - 1);
}

/** Ctrl-R again: the next older entry that matches. */
export function searchOlder(search: HistorySearch, entries: readonly string[]): HistorySearch {
  if (search.query === '') return search;
  const from = (search.matchIndex ?? entries.length) - 1;
  return findFrom(search, entries, search.query, from);
}

/** What the search shows: bash's prompt, and the match with the cursor where the query was found. */
export function searchView(
  search: HistorySearch,
  entries: readonly string[],
): { prompt: string; edit: EditState } {
  const label = search.isFailing ? 'failed reverse-i-search' : 'reverse-i-search';
  const prompt = `(${label})\`${neutralizeControl(search.query, { lineBreaks: 'show' })}': `;
  const match = search.matchIndex === undefined ? undefined : entries[search.matchIndex];
  if (match === undefined) return { prompt, edit: { text: '', cursor: 0 } };
  return {
    prompt,
    edit: { text: match, cursor: safeCursor(match, matchOffset(match, search.query)) },
  };
}

/** The entry the search would give: its match, else the input before the search. */
export function searchResult(search: HistorySearch, entries: readonly string[]): EditState {
  const match = search.matchIndex === undefined ? undefined : entries[search.matchIndex];
  return match === undefined ? search.original : { text: match, cursor: match.length };
}

function findFrom(
  search: HistorySearch,
  entries: readonly string[],
  query: string,
  from: number,
): HistorySearch {
  for (let index = Math.min(from, entries.length - 1); index >= 0; index--) {
    if (matchOffset(entries[index]!, query) !== -1)
      return { ...search, query, matchIndex: index, isFailing: false };
  }
  return { ...search, query, isFailing: true };
}

function matchOffset(entry: string, query: string): number {
  const isExact = query !== query.toLowerCase();
  return (isExact ? entry : entry.toLowerCase()).indexOf(query);
}

/** Lower-casing can change a string's length (İ): keep the cursor inside the text and off a surrogate's second half. */
function safeCursor(text: string, offset: number): number {
  const cursor = Math.min(Math.max(0, offset), text.length);
  const code = text.charCodeAt(cursor);
  return code >= 0xdc00 && code <= 0xdfff ? cursor - 1 : cursor;
}
