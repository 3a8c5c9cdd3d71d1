import type { AgentEvent } from '../../agent/index.js';
import {
  createControlNeutralizer,
  neutralizeControl,
} from '../../shared/terminal/neutralize-control.js';
import { stringifyForTerminal } from '../../shared/terminal/stringify-for-terminal.js';
import type { Colors } from '../terminal.js';
import { describeToolCall } from './describe-tool-call.js';
import { formatUsageLine } from './format-usage-line.js';

const ONE_LINE = { lineBreaks: 'show' } as const;

export interface RunRenderer {
  render(event: AgentEvent): void;
}

/** `--json`: every event as one NDJSON line on stdout; the last is `done`. */
export function createJsonRenderer(stdout: NodeJS.WritableStream): RunRenderer {
  return { render: (event) => void stdout.write(stringifyForTerminal(event) + '\n') };
}

export interface TextRendererOptions {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WritableStream;
  colors: Colors;
  isQuiet: boolean;
  /** Where the answer's text goes (chat renders Markdown); stdout when absent. */
  answer?: { write(text: string): void };
  /** The usage line after the answer (default true; chat prints its status line instead). */
  isUsageLineShown?: boolean;
  /** Show the model's thinking, dimmed, on stderr (chat); `oy run` keeps it to `--json`. */
  isThinkingShown?: boolean;
}

/**
 * Plain output: the answer streams to stdout; tool progress, warnings and the usage line go to stderr.
 * Everything from the model or a tool is neutralised before it is coloured or written.
 */
export function createTextRenderer(options: TextRendererOptions): RunRenderer {
  const { stdout, stderr, colors: c, isQuiet } = options;
  const answer = options.answer ?? stdout;
  const isUsageLineShown = options.isUsageLineShown ?? true;
  const calls = new Map<string, string>();
  const denials = new Map<string, string>();
  let isNewCall = false;
  let isMidLine = false;
  const answerText = createControlNeutralizer();
  let isThinkingOpen = false;
  const thinkingText = createControlNeutralizer();
  const note = (line: string) => {
    // On a terminal both streams share a screen: end the answer's line before a progress line.
    if (isMidLine && stdout.isTTY) {
      answer.write('\n');
      isMidLine = false;
    }
    stderr.write(line + '\n');
  };
  return {
    render(event) {
      if (isThinkingOpen && event.type !== 'thinking_delta') {
        stderr.write('\n');
        isThinkingOpen = false;
      }
      switch (event.type) {
        case 'thinking_delta': {
          if (!options.isThinkingShown || isQuiet) return;
          const text = thinkingText.push(event.text);
          if (text === '') return;
          stderr.write(c.dim(text));
          isThinkingOpen = true;
          return;
        }
        case 'text_delta': {
          const text = answerText.push(event.text);
          if (text === '') return;
          // A new model call's text starts on its own line, so two answers never run together.
          if (isNewCall && isMidLine) answer.write('\n');
          isNewCall = false;
          answer.write(text);
          isMidLine = !text.endsWith('\n');
          return;
        }
        case 'tool_call':
          calls.set(event.call.id, describeToolCall(event.call));
          return;
        case 'approval':
          if (event.outcome === 'denied')
            denials.set(
              event.toolCallId,
              event.rule ? `denied by ${neutralizeControl(event.rule, ONE_LINE)}` : 'denied',
            );
          return;
        case 'tool_result': {
          if (isQuiet) return;
          const what = calls.get(event.toolCallId) ?? neutralizeControl(event.tool, ONE_LINE);
          const denial = denials.get(event.toolCallId);
          const status = event.ok ? c.green('ok') : c.red(denial ?? 'failed');
          note(`${c.dim('•')} ${what} ${status} ${c.dim(`${event.durationMs} ms`)}`);
          return;
        }
        case 'compacted':
          if (!isQuiet)
            note(
              c.dim(
                `context compacted (${event.method}): ${event.tokensBefore} -> ${event.tokensAfter} tokens`,
              ),
            );
          return;
        case 'error':
          if (event.kind === 'warning') {
            if (!isQuiet) note(`warning: ${neutralizeControl(event.message)}`);
          } else note(`error: ${neutralizeControl(event.message)}`);
          return;
        case 'usage':
          isNewCall = true;
          return;
        case 'done': {
          const rest = answerText.end();
          if (rest !== '') answer.write(rest);
          isMidLine ||= rest !== '';
          if (isMidLine) answer.write('\n');
          isMidLine = false;
          if (event.notice && event.stopReason !== 'error')
            note(
              `${event.stopReason === 'cancelled' ? 'interrupted' : 'warning'}: ${neutralizeControl(event.notice)}`,
            );
          if (!isQuiet && isUsageLineShown) note(c.dim(formatUsageLine(event)));
          return;
        }
      }
    },
  };
}
