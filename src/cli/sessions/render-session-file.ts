import type { SessionFileContent } from '../../agent/session/read-session-file.js';
import type { Message } from '../../providers/types.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';

/** A tool result or argument list is shown up to this many characters; the file keeps all of it. */
const MAX_SHOWN_CHARS = 600;

/**
 * A saved session as it went, line by line: prompts, answers, tool calls and their results, and each
 * turn's usage. Every string is untrusted (model and tool text), so each passes neutralizeControl.
 */
export function renderSessionFile(content: SessionFileContent, colors: Colors): string {
  const { header, records } = content;
  const lines = [
    colors.bold(`session ${show(header.id)}${header.name ? ` (${show(header.name)})` : ''}`),
    colors.dim(`${show(header.workspace)}, ${show(header.model)}, ${show(header.createdAt)}`),
  ];
  for (const record of records) {
    switch (record.type) {
      case 'message':
        lines.push(...renderMessage(record.message, colors));
        break;
      case 'turn': {
        const { inputTokens, outputTokens } = record.usage;
        const cost = record.costUsd === null ? 'cost unknown' : `$${record.costUsd.toFixed(4)}`;
        lines.push(
          colors.dim(`-- turn ${record.turn}: ${inputTokens} in, ${outputTokens} out; ${cost}`),
        );
        break;
      }
      case 'answer': {
        const { inputTokens, outputTokens } = record.usage;
        lines.push(
          colors.dim(
            `-- model answer: ${inputTokens} in, ${outputTokens} out, ${show(record.stopReason)}`,
          ),
        );
        break;
      }
      case 'compacted':
        lines.push(
          colors.dim(`-- compacted: ${record.tokensBefore} -> ${record.tokensAfter} tokens`),
        );
        break;
      case 'undo':
        lines.push(colors.dim(`-- /undo from turn ${record.turn}`));
        break;
      case 'resumed':
        lines.push(colors.dim('-- resumed'));
        break;
      default:
        break;
    }
  }
  return `${lines.join('\n')}\n`;
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

function shorten(text: string): string {
  const shown = show(text);
  return shown.length > MAX_SHOWN_CHARS ? `${shown.slice(0, MAX_SHOWN_CHARS - 1)}…` : shown;
}

function show(text: string, lineBreaks: 'show' | 'normalize' = 'show'): string {
  return neutralizeControl(text, { lineBreaks });
}
