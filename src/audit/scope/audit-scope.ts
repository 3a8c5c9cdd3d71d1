import { classifyFile, type FileKind } from './classify-file.js';

/**
 * What the model reviews (`--scope`): `shipping`, the default, is the code that ships (source,
 * configuration, CI, infrastructure, scripts); `all` adds tests, fixtures, docs, translations and
 * examples. Every file gets the deterministic checks (redaction, index, secrets) either way.
 */
export type AuditScope = 'shipping' | 'all';

export const AUDIT_SCOPES: readonly AuditScope[] = ['shipping', 'all'];

export const DEFAULT_AUDIT_SCOPE: AuditScope = 'shipping';

/** Who looked at a file: the model (and the deterministic checks), or the deterministic checks only. */
export type ReviewScope = 'model' | 'deterministic';

/** Which review a file of this kind gets under `scope`. */
export function reviewScopeOf(kind: FileKind, scope: AuditScope): ReviewScope {
  return scope === 'all' || kind === 'source' ? 'model' : 'deterministic';
}

/** The kind and review of a file, by its path. */
export function scopeFile(path: string, scope: AuditScope): { kind: FileKind; scope: ReviewScope } {
  const kind = classifyFile(path);
  return { kind, scope: reviewScopeOf(kind, scope) };
}
