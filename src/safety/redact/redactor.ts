import type { Redaction } from './redaction.js';
import { compileRuleSet, type CompiledRuleSet } from './compile-rule-set.js';
import { findSecretSpans } from './find-secret-spans.js';
import type { RedactionRule } from './redaction-rule.js';
import { DEFAULT_RULE_SET } from './redaction-rules.js';

export interface RedactionResult {
  /** The text with every secret replaced; the same number of lines as the input. */
  text: string;
  /** One entry per replaced secret, in text order. */
  redactions: Redaction[];
}

export interface RedactorOptions {
  /** A different rule set (tests, the self-test); the default is every built-in rule. */
  rules?: readonly RedactionRule[];
}

/**
 * Replaces secrets with `[REDACTED:<rule>:<n>]`. `n` counts distinct values per rule from 1 and
 * stays the same for the same value across every text this instance redacts.
 */
export class Redactor {
  readonly #ruleSet: CompiledRuleSet;
  readonly #numbers = new Map<string, Map<string, number>>();

  constructor(options: RedactorOptions = {}) {
    this.#ruleSet = options.rules === undefined ? DEFAULT_RULE_SET : compileRuleSet(options.rules);
  }

  redact(text: string): RedactionResult {
    const spans = findSecretSpans(text, this.#ruleSet);
    if (spans.length === 0) return { text, redactions: [] };
    const pieces: string[] = [];
    const redactions: Redaction[] = [];
    let cursor = 0;
    let line = 1;
    for (const span of spans) {
      line += countNewlines(text, cursor, span.start);
      const value = text.slice(span.start, span.end);
      const placeholder = `[REDACTED:${span.ruleId}:${this.#numberOf(span.ruleId, value)}]`;
      const newlines = countNewlines(value, 0, value.length);
      pieces.push(text.slice(cursor, span.start), placeholder, '\n'.repeat(newlines));
      redactions.push({ rule: span.ruleId, line, placeholder });
      line += newlines;
      cursor = span.end;
    }
    pieces.push(text.slice(cursor));
    return { text: pieces.join(''), redactions };
  }

  #numberOf(ruleId: string, value: string): number {
    let numbers = this.#numbers.get(ruleId);
    if (numbers === undefined) {
      numbers = new Map();
      this.#numbers.set(ruleId, numbers);
    }
    let number = numbers.get(value);
    if (number === undefined) {
      number = numbers.size + 1;
      numbers.set(value, number);
    }
    return number;
  }
}

/** A new redactor with its own numbering. */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  return new Redactor(options);
}

function countNewlines(text: string, start: number, end: number): number {
  // Searching a slice keeps the work inside [start, end) even when no newline follows.
  const region = start === 0 && end === text.length ? text : text.slice(start, end);
  let count = 0;
  for (let index = region.indexOf('\n'); index !== -1; index = region.indexOf('\n', index + 1)) {
    count += 1;
  }
  return count;
}
