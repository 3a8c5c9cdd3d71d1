import type { LedgerEntry, SkipReason } from '../types.js';

/** A `skipped(<reason>)` ledger line, with a detail only when there is one. */
export function skipEntry(path: string, reason: SkipReason, detail?: string): LedgerEntry {
  return detail === undefined
    ? { path, status: 'skipped', reason }
    : { path, status: 'skipped', reason, detail };
}
