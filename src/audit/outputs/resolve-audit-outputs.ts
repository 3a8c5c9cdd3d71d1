import type { ReportFormat } from '../../config/config-schema.js';
import { UsageError } from '../../shared/errors.js';
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
}

/** Resolves and checks every output path before any other work, so a bad path costs nothing. */
export function resolveAuditOutputs(
  root: string,
  format: ReportFormat,
  out: string | null,
  manifest: string | null,
): AuditOutputs {
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
  return { reportPath, manifestPath };
}
