import type { HintCategory, SecurityHint, Severity } from '../types.js';
import type { FileContext } from './file-context.js';
import { makeExcerpt } from './make-excerpt.js';

/** Hints kept per rule and file: a generated or hostile file cannot flood the report or a prompt. */
export const MAX_HINTS_PER_RULE_PER_FILE = 100;

/** Gathers one file's hints: at most one per rule and line, and a bounded number per rule. */
export class HintCollector {
  readonly hints: SecurityHint[] = [];
  readonly #file: FileContext;
  readonly #seen = new Set<string>();
  readonly #countByRule = new Map<string, number>();

  constructor(file: FileContext) {
    this.#file = file;
  }

  /** Whether a rule already has a hint on a line (so a caller can skip the work). */
  has(ruleId: string, line: number): boolean {
    return this.#seen.has(`${ruleId}\n${line}`);
  }

  add(
    rule: { id: string; category: HintCategory },
    severity: Severity,
    message: string,
    line: number,
    offset: number,
  ): void {
    const key = `${rule.id}\n${line}`;
    if (this.#seen.has(key)) return;
    const count = this.#countByRule.get(rule.id) ?? 0;
    if (count >= MAX_HINTS_PER_RULE_PER_FILE) return;
    this.#seen.add(key);
    this.#countByRule.set(rule.id, count + 1);
    const lines = this.#file.lines;
    this.hints.push({
      ruleId: rule.id,
      category: rule.category,
      severity,
      path: this.#file.path,
      line,
      excerpt: makeExcerpt(this.#file.text, lines.startOf(line), lines.endOf(line), offset),
      message,
    });
  }
}
