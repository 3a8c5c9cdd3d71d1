import type { ReportFormat } from '../../config/config-schema.js';
import { UsageError } from '../../shared/errors.js';
import { OutputTarget } from '../../safety/paths/output-target.js';
import { resolveOutputPath } from '../../safety/paths/resolve-output-path.js';

export const DEFAULT_REPORT_NAMES: Record<ReportFormat, string> = {
  markdown: 'ISSUES.md',
  sarif: 'oy.sarif',
  json: 'oy-audit.json',
};

export interface AuditOutputs {
  /** null: `--out -`, the report goes to the caller (stdout). */
  reportPath: string | null;
  manifestPath: string | null;
  /** Where the report and the ledger are written: their folders held open since before any work. */
  report: OutputTarget | null;
  manifest: OutputTarget | null;
}

/**
 * Resolves and checks every output path, then opens each one's folder, before any other work: a bad
 * path costs nothing, and a folder swapped for a link later cannot redirect the files.
 */
export async function resolveAuditOutputs(
  root: string,
  format: ReportFormat,
  out: string | null,
  manifest: string | null,
): Promise<AuditOutputs> {
  const reportPath =
    out === '-' ? null : resolveOutputPath(root, out ?? DEFAULT_REPORT_NAMES[format], '--out');
  const manifestPath =
    manifest === null
      ? null
      : resolveOutputPath(root, manifest, '--manifest', { example: 'oy-manifest.json' });
  if (manifestPath !== null && manifestPath === reportPath) {
    throw new UsageError('--manifest and --out name the same file', {
      hint: 'give the coverage ledger its own file, such as oy-manifest.json',
    });
  }
  const report = reportPath === null ? null : await OutputTarget.open(root, reportPath, '--out');
  try {
    const manifestTarget =
      manifestPath === null ? null : await OutputTarget.open(root, manifestPath, '--manifest');
    return { reportPath, manifestPath, report, manifest: manifestTarget };
  } catch (error) {
    await report?.close();
    throw error;
  }
}

export async function closeAuditOutputs(outputs: AuditOutputs): Promise<void> {
  await outputs.report?.close();
  await outputs.manifest?.close();
}
