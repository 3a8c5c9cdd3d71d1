import type { SessionFileContent, SessionRecord } from '../../agent/index.js';
import type { Message } from '../../providers/types.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';
import { describeApprovalRecord } from './describe-approval-record.js';

/** A tool result or argument list is shown up to this many characters; the file keeps all of it. */
const MAX_SHOWN_CHARS = 600;
/** Line numbers of left-out lines named before "and N more". */
const MAX_NAMED_LINES = 10;

/**
 * A saved session as it went, line by line: prompts, answers, tool calls, how each was approved or
 * refused, their results, failed model calls, and each turn's usage. Every string is untrusted (model,
 * tool and workspace text, or a hand edit), so each passes neutralizeControl; lines that could not be
 * read are counted at the top, never shown.
 */
export function renderSessionFile(content: SessionFileContent, colors: Colors): string {
  const { header, records, unreadableLines } = content;
  const lines = [
    colors.bold(`session ${show(header.id)}${header.name ? ` (${show(header.name)})` : ''}`),
    colors.dim(`${show(header.workspace)}, ${show(header.model)}, ${show(header.createdAt)}`),
  ];
  if (unreadableLines.length > 0) lines.push(describeUnreadable(unreadableLines));
  for (const record of records) lines.push(...renderRecord(record, colors));
  return `${lines.join('\n')}\n`;
}

function renderRecord(record: SessionRecord, colors: Colors): string[] {
  switch (record.type) {
    case 'message':
      return renderMessage(record.message, colors);
    case 'approval': {
      const line = `  ${describeApprovalRecord(record)}`;
      return [record.outcome === 'denied' ? colors.red(line) : colors.dim(line)];
    }
    case 'turn': {
      const { inputTokens, outputTokens } = record.usage;
      const cost = record.costUsd === null ? 'cost unknown' : `$${record.costUsd.toFixed(4)}`;
      return [
        colors.dim(`-- turn ${record.turn}: ${inputTokens} in, ${outputTokens} out; ${cost}`),
      ];
    }
    case 'answer': {
      const { inputTokens, outputTokens } = record.usage;
      return [
        colors.dim(
          `-- model answer: ${inputTokens} in, ${outputTokens} out, ${show(record.stopReason)}`,
        ),
      ];
    }
    case 'failed_call': {
      const { failure } = record;
      if (failure.type === 'cancelled') return [colors.dim('-- model call cancelled by the user')];
      return [
        colors.red(`-- model call failed (${show(failure.kind)}): ${shorten(failure.message)}`),
      ];
    }
    case 'compacted':
      return [colors.dim(`-- compacted: ${record.tokensBefore} -> ${record.tokensAfter} tokens`)];
    case 'undo':
      return [colors.dim(`-- /undo from turn ${record.turn}`)];
    case 'resumed':
      return [colors.dim('-- resumed')];
    default:
      return [];
  }
}

function renderMessage(message: Message, colors: Colors): string[] {
  if (message.role === 'user') return [colors.bold('> ') + show(message.text, 'normalize')];
  if (message.role === 'assistant') {
    const lines = message.text.trim() === '' ? [] : [show(message.text, 'normalize')];
    for (const call of message.toolCalls)
      lines.push(
        colors.dim(`  [${show(call.name)}] ${shorten(JSON.stringify(call.arguments) ?? '')}`),
      );
    return lines;
  }
  return message.results.map((result) =>
    colors.dim(`  ${result.isError === true ? 'failed' : 'result'}: ${shorten(result.content)}`),
  );
}

function describeUnreadable(numbers: readonly number[]): string {
  const named = numbers.slice(0, MAX_NAMED_LINES).join(', ');
  const more =
    numbers.length > MAX_NAMED_LINES ? ` and ${numbers.length - MAX_NAMED_LINES} more` : '';
  const count = numbers.length === 1 ? '1 line' : `${numbers.length} lines`;
  return `-- ${count} of this file could not be read and ${numbers.length === 1 ? 'is' : 'are'} left out (line ${named}${more}): torn by a crash, edited by hand, or written by a newer oy`;
}

function shorten(text: string): string {
  const shown = show(text);
  return shown.length > MAX_SHOWN_CHARS ? `${shown.slice(0, MAX_SHOWN_CHARS - 1)}…` : shown;
}

function show(text: string, lineBreaks: 'show' | 'normalize' = 'show'): string {
  return neutralizeControl(text, { lineBreaks });
}
