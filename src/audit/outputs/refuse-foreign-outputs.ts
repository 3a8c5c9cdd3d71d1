import { UsageError } from '../../shared/errors.js';
import type { OutputTarget } from '../../safety/paths/output-target.js';
import { looksLikeOyOutput } from './looks-like-oy-output.js';
import type { AuditOutputs } from './resolve-audit-outputs.js';

/** An existing output file that holds no oy marker is someone's work: it is replaced only with `--force`. */
export async function refuseForeignOutputs(
  outputs: AuditOutputs,
  isForced: boolean,
): Promise<void> {
  if (isForced) return;
  for (const [flag, target] of [
    ['--out', outputs.report],
    ['--manifest', outputs.manifest],
  ] as const) {
    if (target !== null) await refuseForeignFile(flag, target);
  }
}

/** Read through the folder held open for the write, so what is judged is what would be replaced. */
export async function refuseForeignFile(flag: string, target: OutputTarget): Promise<void> {
  const text = await target.readExisting();
  if (text === undefined || looksLikeOyOutput(text)) return;
  throw new UsageError(`${flag} would overwrite ${target.absolutePath}, which oy did not write`, {
    hint: `choose another file for ${flag}, or pass --force to replace it`,
  });
}
