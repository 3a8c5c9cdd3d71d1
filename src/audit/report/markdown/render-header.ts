import type { AuditReport } from '../../types.js';
import { formatDate } from '../format-quantities.js';
import { escapeMarkdownLine, formatCodeSpan } from './escape-markdown.js';

/** The title and the transparency lines: who wrote this, how to reproduce it, and its limits. */
export function renderHeader(report: AuditReport): string {
  const date = formatDate(report.generatedAt) ?? escapeMarkdownLine(report.generatedAt);
  const command = formatCodeSpan(report.command) || '(command not recorded)';
  const lines = [
    '# Audit Issues',
    '',
    `> Generated with oy ${escapeMarkdownLine(report.tool.version)}: ${command} · ${date}`,
  ];
  if (report.mode === 'offline') {
    lines.push(
      '>',
      '> No model was used: these are the deterministic checks only (secrets, secret-bearing files,' +
        ' security hints, prompt-injection markers). To add the model review, configure a model' +
        ' with `--model` or `OY_MODEL` (see `oy doctor`).',
    );
  }
  if (report.coverage.isPartial) {
    lines.push(
      '>',
      '> **Partial result:** some files or chunks could not be reviewed; see Coverage for which.',
    );
  }
  return lines.join('\n');
}
