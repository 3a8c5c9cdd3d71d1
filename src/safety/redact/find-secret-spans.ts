import { findRepeatedValues } from './find-repeated-values.js';
import type { CompiledRuleSet } from './compile-rule-set.js';
import type { WindowRule } from './redaction-rule.js';
import { createScanView, type ScanView } from './scan-view.js';

/** A secret value found in a text, named by the rule that found it. */
export interface SecretSpan {
  ruleId: string;
  /** Index of the rule in its set; lower wins a tie. */
  rank: number;
  start: number;
  end: number;
}

// A window rule never reads further than this from its keyword, even on a very long line.
const MAX_WINDOW_SIDE_CHARS = 4096;

interface PendingWindows {
  rule: WindowRule;
  rank: number;
  ranges: Array<[number, number]>;
}

/**
 * Finds every secret in a text: a keyword scan first, then each rule only where its keywords are.
 * Reads the text with what hides a secret undone: escapes, joints of split literals, look-alike
 * letters (see `createScanView`).
 * Returns non-overlapping spans of the original text, in text order.
 */
export function findSecretSpans(original: string, ruleSet: CompiledRuleSet): SecretSpan[] {
  const view = createScanView(original);
  const spans = findSpansInView(view, original, ruleSet);
  // Literals side by side on a line are one string in code and two arguments in a shell command:
  // both readings are scanned, and whatever either finds is redacted.
  if (!view.hasSoftEdits) return spans;
  const apart = createScanView(original, false);
  return resolveOverlaps([...spans, ...findSpansInView(apart, original, ruleSet)]);
}

function findSpansInView(view: ScanView, original: string, ruleSet: CompiledRuleSet): SecretSpan[] {
  const spans = findSpansIn(view.text, ruleSet);
  if (view.text === original) return spans;
  return resolveOverlaps(spans.map((span) => ({ ...span, ...view.toOriginal(span) })));
}

/** Every secret in a text as the rules read it. */
function findSpansIn(text: string, ruleSet: CompiledRuleSet): SecretSpan[] {
  const found: SecretSpan[] = [];
  const windows = new Map<string, PendingWindows>();
  ruleSet.keywordScanner.forEachHit(text, (at, keyword) => {
    for (const { rule, rank } of ruleSet.rulesByKeyword[keyword] ?? []) {
      if (rule.scope === 'anchored') {
        const range = rule.findAt(text, at);
        if (range !== undefined && range.end > range.start) {
          found.push({ ruleId: rule.id, rank, start: range.start, end: range.end });
        }
      } else {
        const pending = windows.get(rule.id) ?? { rule, rank, ranges: [] };
        pending.ranges.push(windowAround(text, at, rule.contextLines));
        windows.set(rule.id, pending);
      }
    }
  });
  for (const { rule, rank, ranges } of windows.values()) {
    for (const [start, end] of mergeRanges(ranges)) {
      for (const range of rule.findIn(text, start, end)) {
        found.push({ ruleId: rule.id, rank, start: range.start, end: range.end });
      }
    }
  }
  const spans = resolveOverlaps(found);
  if (spans.length === 0) return spans;
  return resolveOverlaps([...spans, ...findRepeatedValues(text, spans)]);
}

/** The range of `lines` lines either side of `at`, clamped to MAX_WINDOW_SIDE_CHARS each way. */
function windowAround(text: string, at: number, lines: number): [number, number] {
  // Work on clamped slices so a very long line costs no more than the clamp.
  const from = Math.max(0, at - MAX_WINDOW_SIDE_CHARS);
  const before = text.slice(from, at);
  let cut = before.length;
  for (let found = 0; found <= lines; found += 1) {
    const newline = cut > 0 ? before.lastIndexOf('\n', cut - 1) : -1;
    if (newline === -1) {
      cut = -1;
      break;
    }
    cut = newline;
  }
  const after = text.slice(at, Math.min(text.length, at + MAX_WINDOW_SIDE_CHARS));
  let stop = -1;
  for (let found = 0; found <= lines; found += 1) {
    const newline = after.indexOf('\n', stop + 1);
    if (newline === -1) {
      stop = after.length;
      break;
    }
    stop = newline;
  }
  return [from + cut + 1, at + stop];
}

function mergeRanges(ranges: Array<[number, number]>): Array<[number, number]> {
  const merged: Array<[number, number]> = [];
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/**
 * Keeps one span per place: the longest wins, a tie goes to the more specific rule, and a span that
 * sticks out of a kept one widens it, so every character any rule flagged is covered.
 */
function resolveOverlaps(found: SecretSpan[]): SecretSpan[] {
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start || b.end - a.end || a.rank - b.rank);
  const kept: SecretSpan[] = [];
  for (const span of found) {
    const last = kept[kept.length - 1];
    if (last === undefined || span.start >= last.end) kept.push({ ...span });
    else if (span.end > last.end) last.end = span.end;
  }
  return kept;
}
