import { readFileSync } from 'node:fs';
import { UsageError } from '../../shared/errors.js';
import { looksLikeOyOutput } from './looks-like-oy-output.js';
import type { AuditOutputs } from './resolve-audit-outputs.js';

/** An existing output file that holds no oy marker is someone's work: it is replaced only with `--force`. */
export function refuseForeignOutputs(outputs: AuditOutputs, isForced: boolean): void {
  if (isForced) return;
  for (const [flag, file] of [
    ['--out', outputs.reportPath],
    ['--manifest', outputs.manifestPath],
  ] as const) {
    if (file !== null) refuseForeignFile(flag, file);
  }
}

export function refuseForeignFile(flag: string, file: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  if (looksLikeOyOutput(text)) return;
  throw new UsageError(`${flag} would overwrite ${file}, which oy did not write`, {
    hint: `choose another file for ${flag}, or pass --force to replace it`,
  });
}
