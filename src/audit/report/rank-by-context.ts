import type { FileKind } from '../scope/classify-file.js';
import type { Severity } from '../types.js';

/** Application code first, then what only supports it, least likely to ship last. */
const KIND_RANK: Readonly<Record<FileKind, number>> = {
  source: 0,
  test: 1,
  fixture: 2,
  example: 3,
  docs: 4,
  translation: 5,
};

const ONE_STEP_DOWN: Readonly<Record<Severity, Severity>> = {
  critical: 'high',
  high: 'medium',
  medium: 'low',
  low: 'info',
  info: 'info',
};

// Text that addresses an AI reviewer works wherever it sits: a test file can talk to the model too.
const CONTEXT_FREE_CATEGORIES: ReadonlySet<string> = new Set(['prompt-injection']);

/**
 * A deterministic result's severity where it was found: one step lower outside application code,
 * so a JWT in a unit test or MD5 in a fixture ranks below the same in code that ships.
 */
export function severityInContext(severity: Severity, category: string, kind: FileKind): Severity {
  if (kind === 'source' || CONTEXT_FREE_CATEGORIES.has(category)) return severity;
  return ONE_STEP_DOWN[severity];
}

/** Negative when `a` is the kind a reader should see first. */
export function compareKinds(a: FileKind, b: FileKind): number {
  return KIND_RANK[a] - KIND_RANK[b];
}
