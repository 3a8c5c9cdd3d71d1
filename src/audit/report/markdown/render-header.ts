import type { AuditReport } from '../../types.js';
import { FILE_KIND_LABELS, FILE_KINDS, type FileKind } from '../../scope/classify-file.js';
import { formatDate } from '../format-quantities.js';
import { escapeMarkdownLine, formatCodeSpan } from './escape-markdown.js';

/** The title and the transparency lines: who wrote this, how to reproduce it, what was reviewed how, and its limits. */
export function renderHeader(report: AuditReport): string {
  const date = formatDate(report.generatedAt) ?? escapeMarkdownLine(report.generatedAt);
  const command = formatCodeSpan(report.command) || '(command not recorded)';
  const lines = [
    '# Audit Issues',
    '',
    `> Generated with oy ${escapeMarkdownLine(report.tool.version)}: ${command} · ${date}`,
    '>',
    `> ${describeReview(report)}`,
  ];
  if (report.coverage.isPartial) {
    lines.push(
      '>',
      '> **Partial result:** some files or chunks could not be reviewed; see Coverage for which.',
    );
  }
  return lines.join('\n');
}

/** One line: what the model reviewed (or why there was no model), and what got the deterministic checks only. */
function describeReview(report: AuditReport): string {
  const { ledger, scope, chunksSkippedByBudget } = report.coverage;
  const reviewed = ledger.filter((entry) => entry.status === 'reviewed').length;
  const checksOnly = countByKind(
    ledger.flatMap((entry) =>
      entry.status === 'skipped' && entry.reason === 'scope' && entry.kind ? [entry.kind] : [],
    ),
  );
  const sendsTo = report.mode === 'model' ? 'the model' : 'a model review';
  const scopeNote =
    checksOnly === ''
      ? ''
      : ` Deterministic checks only (\`--scope ${scope}\`): ${checksOnly}; \`--scope all\` sends them to ${sendsTo} too.`;
  const budgetNote =
    chunksSkippedByBudget === 0
      ? ''
      : ` Not reviewed by the model: ${plural(chunksSkippedByBudget, 'chunk')} left out by \`--riskiest\` (files \`skipped(budget)\`).`;
  if (report.mode === 'model') {
    const model = formatCodeSpan(report.model ?? '') || 'a model';
    return `Reviewed by the model ${model}: ${plural(reviewed, 'file')} in ${plural(report.coverage.chunks, 'chunk')}, with the deterministic checks on every file read.${scopeNote}${budgetNote}`;
  }
  const why =
    report.offlineReason === 'flag'
      ? 'No model was used: the run was offline by choice (`--offline`), so these are the deterministic checks only (secrets, secret-bearing files, security hints, prompt-injection markers).'
      : 'No model was used: these are the deterministic checks only (secrets, secret-bearing files, security hints, prompt-injection markers). To add the model review, configure a model with `--model` or `OY_MODEL` (see `oy doctor`).';
  return `${why}${scopeNote}`;
}

function countByKind(kinds: readonly FileKind[]): string {
  return FILE_KINDS.flatMap((kind) => {
    const count = kinds.filter((each) => each === kind).length;
    return count > 0 ? [`${FILE_KIND_LABELS[kind]} ${count}`] : [];
  }).join(', ');
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}
