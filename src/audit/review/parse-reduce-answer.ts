import { extractJson } from './extract-json.js';
import { truncateText } from './truncate-text.js';

/** What the reduce call decided, with only ids it was given. */
export interface ReduceAnswer {
  summary: string | null;
  /** Known ids, each once, most important first. */
  order: string[];
  /** Groups of two or more known ids; an id is in one group at most. */
  merge: string[][];
}

/** A longer summary is cut here: the report wants a paragraph, not an essay. */
export const MAX_SUMMARY_CHARS = 2_000;

/**
 * The reduce answer, read leniently like any model JSON: fenced or bare, with text around it.
 * Unknown ids, repeats and malformed entries are dropped one by one; null when nothing usable is
 * left (not JSON, not an object, or no summary, order or merge worth applying).
 */
export function parseReduceAnswer(text: string, ids: readonly string[]): ReduceAnswer | null {
  const value = parseJsonObject(text);
  if (value === null) return null;
  const known = new Map(ids.map((id) => [id.toLowerCase(), id]));
  const resolve = (item: unknown): string | undefined =>
    typeof item === 'string' ? known.get(item.trim().toLowerCase()) : undefined;
  const summary = readSummary(value.summary);
  const order = unique(asArray(value.order).map(resolve));
  const merge = readMerge(asArray(value.merge), resolve);
  if (summary === null && order.length === 0 && merge.length === 0) return null;
  return { summary, order, merge };
}

// The first plain object among the readings `extractJson` finds (fenced, bare, amid prose).
function parseJsonObject(text: string): Record<string, unknown> | null {
  const extracted = extractJson(text);
  if ('error' in extracted) return null;
  const value = extracted.values.find(
    (candidate) => typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate),
  );
  return (value as Record<string, unknown> | undefined) ?? null;
}

function readSummary(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const summary = value.trim();
  if (summary === '') return null;
  return truncateText(summary, MAX_SUMMARY_CHARS);
}

// First group wins an id named in several; a group left with one id merges nothing.
function readMerge(groups: unknown[], resolve: (item: unknown) => string | undefined): string[][] {
  const used = new Set<string>();
  const result: string[][] = [];
  for (const group of groups) {
    const members = unique(asArray(group).map(resolve)).filter((id) => !used.has(id));
    if (members.length < 2) continue;
    for (const id of members) used.add(id);
    result.push(members);
  }
  return result;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function unique(items: (string | undefined)[]): string[] {
  return [...new Set(items.filter((item): item is string => item !== undefined))];
}
