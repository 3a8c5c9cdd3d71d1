/**
 * Which rule refused a path. `io-error` is not a policy rule: it reports a file system failure
 * (permission, disk) from `openForWrite`, so the tool can still return a result instead of throwing.
 */
export type PathRule =
  | 'outside-workspace'
  | 'symlink-escape'
  | 'symlink-write'
  | 'hard-link-write'
  | 'protected-path'
  | 'invalid-path'
  | 'io-error';

export interface PathRefusal {
  ok: false;
  rule: PathRule;
  reason: string;
}

/** Longest slice of the requested path quoted back in a reason, so a 5000-byte path stays readable. */
const SHOWN_PATH_CHARS = 120;

export function refusePath(rule: PathRule, requested: string, why: string): PathRefusal {
  const shown =
    requested.length > SHOWN_PATH_CHARS ? `${requested.slice(0, SHOWN_PATH_CHARS)}…` : requested;
  return { ok: false, rule, reason: `${JSON.stringify(shown)} ${why} [${rule}]` };
}

/** The `code` of a Node file system error, or `'unknown'`. */
export function errorCode(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string')
    return error.code;
  return 'unknown';
}
