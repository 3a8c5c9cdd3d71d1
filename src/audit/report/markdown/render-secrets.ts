import type { AuditReport } from '../../types.js';
import { compareText } from '../order-by-severity.js';
import { escapeMarkdownLine, formatTable } from './escape-markdown.js';

const SECRETS_HEADER = ['Rule', 'Path', 'Line', 'Committed'] as const;
const SECRET_FILE_RULE = 'secret-file';

interface SecretEntry {
  rule: string;
  path: string;
  line: number | null;
  isTracked: boolean;
}

/** `## Secrets`: every redaction and secret-bearing file by rule and place, never a value. */
export function renderSecrets(report: AuditReport): string {
  const entries: SecretEntry[] = [
    ...report.secrets.map(({ rule, path, line, isTracked }) => ({ rule, path, line, isTracked })),
    ...report.secretFiles.map(({ path, isTracked }) => ({
      rule: SECRET_FILE_RULE,
      path,
      line: null,
      isTracked,
    })),
  ].sort(compareEntries);
  if (entries.length === 0) return '## Secrets\n\nNo secrets found.';
  const rows = entries.map((entry) => [
    escapeMarkdownLine(entry.rule),
    escapeMarkdownLine(entry.path),
    entry.line === null ? '—' : String(entry.line),
    entry.isTracked ? 'yes' : 'no',
  ]);
  return [
    '## Secrets',
    'Values are never shown. Secret-bearing files (rule `secret-file`) were not read. Rotate any committed secret: removing it from the files does not remove it from the git history.',
    formatTable(SECRETS_HEADER, rows),
  ].join('\n\n');
}

function compareEntries(a: SecretEntry, b: SecretEntry): number {
  return (
    compareText(a.path, b.path) || (a.line ?? 0) - (b.line ?? 0) || compareText(a.rule, b.rule)
  );
}
