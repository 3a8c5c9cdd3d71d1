import type { AuditReport, Method } from '../../types.js';
import { formatCount } from '../format-quantities.js';
import { escapeMarkdownLine, formatTable } from './escape-markdown.js';

/** `## Method`: what it takes to reproduce the report and judge it. */
export function renderMethod(report: AuditReport): string {
  const { method } = report;
  const promptHash =
    method.promptVersionHash ?? (report.mode === 'offline' ? 'n/a (offline)' : 'n/a');
  return [
    '## Method',
    formatTable(
      ['Item', 'Value'],
      [
        ['oy version', escapeMarkdownLine(method.oyVersion)],
        ['Git commit', formatCommit(method)],
        ['Prompt version hash', escapeMarkdownLine(promptHash)],
        ['Chunk plan hash', escapeMarkdownLine(method.planHash)],
        ['Tokenizer', escapeMarkdownLine(method.tokenizer)],
        ['Chunk budget', `${formatCount(method.chunkTokens)} tokens`],
      ],
    ),
  ].join('\n\n');
}

function formatCommit(method: Method): string {
  if (method.gitCommit === null) {
    return method.isDirty === null ? 'not a git repository' : 'no commit yet';
  }
  const dirty = method.isDirty === true ? ' (working tree dirty)' : ' (clean)';
  return `${escapeMarkdownLine(method.gitCommit)}${method.isDirty === null ? '' : dirty}`;
}
