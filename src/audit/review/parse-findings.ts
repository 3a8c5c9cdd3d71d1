import { extractJson } from './extract-json.js';
import { rawFindingSchema, type RawFinding } from './raw-finding.js';

export { renderRepairPrompt } from './render-repair-prompt.js';

/** A finding left out of a parsed answer, and why (zod's path and message). */
export interface DroppedFinding {
  /** 0-based position in the answer's findings array. */
  index: number;
  reason: string;
}

export type ParsedFindings =
  { findings: RawFinding[]; dropped: DroppedFinding[] } | { error: string };

// Invalid findings named in an error message; the rest are counted, so a repair prompt stays small.
const MAX_REASONS_IN_ERROR = 3;

/**
 * The findings in a map answer, read leniently: bare or fenced JSON, prose around it, a bare array,
 * loose severities, line numbers as text, a percentage confidence. Invalid findings are dropped and
 * listed; an answer with no usable findings array returns an error meant for one repair prompt.
 */
export function parseFindings(text: string): ParsedFindings {
  const extracted = extractJson(text);
  if ('error' in extracted) return { error: extracted.error };
  const list = pickFindingsArray(extracted.values);
  if (list === undefined) return { error: describeShape(extracted.values[0]) };
  const findings: RawFinding[] = [];
  const dropped: DroppedFinding[] = [];
  for (const [index, item] of list.entries()) {
    const result = rawFindingSchema.safeParse(item);
    if (result.success) findings.push(result.data);
    else dropped.push({ index, reason: describeIssues(result.error.issues) });
  }
  if (list.length > 0 && findings.length === 0) return { error: describeAllInvalid(dropped) };
  return { findings, dropped };
}

// `{"findings": [...]}` wins over a bare array, which may be a stray `[1]` in prose before it.
function pickFindingsArray(values: readonly unknown[]): unknown[] | undefined {
  for (const value of values) {
    if (typeof value === 'object' && value !== null && 'findings' in value) {
      const { findings } = value;
      if (Array.isArray(findings)) return findings;
    }
  }
  return values.find((value): value is unknown[] => Array.isArray(value));
}

function describeShape(value: unknown): string {
  const expected = 'expected an object {"findings": [...]}';
  if (typeof value !== 'object' || value === null)
    return `${expected}, got ${JSON.stringify(value)}.`;
  if ('findings' in value)
    return `${expected}, but "findings" is ${value.findings === null ? 'null' : typeof value.findings}, not an array.`;
  const keys = Object.keys(value)
    .slice(0, 5)
    .map((key) => JSON.stringify(key));
  return `${expected}, got an object with ${keys.length === 0 ? 'no keys' : `keys ${keys.join(', ')}`}.`;
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((issue) => `${issue.path.map(String).join('.') || '(finding)'}: ${issue.message}`)
    .join('; ');
}

function describeAllInvalid(dropped: readonly DroppedFinding[]): string {
  const named = dropped
    .slice(0, MAX_REASONS_IN_ERROR)
    .map((drop) => `findings[${drop.index}] ${drop.reason}`);
  const more = dropped.length - named.length;
  return `none of the ${dropped.length} findings is valid: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`;
}
