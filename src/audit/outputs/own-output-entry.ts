import path from 'node:path';
import type { LedgerEntry } from '../types.js';
import { isSealedFile } from './is-sealed-file.js';

/** The ledger line of a file left out as oy's own output: only ever for a seal that checks out. */
export function ownOutputEntry(filePath: string): LedgerEntry {
  return {
    path: filePath,
    status: 'skipped',
    reason: 'oy-output',
    detail: "a report, ledger or baseline this user's oy wrote (its seal checks out)",
  };
}

/**
 * A big repository's SARIF can be over `--max-file-bytes`: a too-large file whose seal checks out
 * is oy's own output, not a file that was meant to be reviewed and was not.
 */
export function recogniseLargeOutputs(
  ledger: readonly LedgerEntry[],
  root: string,
  key: Uint8Array | undefined,
): LedgerEntry[] {
  return ledger.map((entry) =>
    entry.reason === 'too-large' && isSealedFile(path.join(root, entry.path), key)
      ? ownOutputEntry(entry.path)
      : entry,
  );
}
