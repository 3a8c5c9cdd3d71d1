import type { AgentEvent } from '../../agent/index.js';
import {
  createControlNeutralizer,
  neutralizeControl,
} from '../../shared/terminal/neutralize-control.js';
import { stringifyForTerminal } from '../../shared/terminal/stringify-for-terminal.js';
import type { Colors } from '../terminal.js';
import { createEventView, type ViewItem } from '../agent-view/view-items.js';
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
}

/**
 * Plain output: the answer streams to stdout; tool progress, warnings and the usage line go to stderr
 * (thinking is kept to `--json`). Everything from the model or a tool is neutralised before it is
 * coloured or written.
 */
export function createTextRenderer(options: TextRendererOptions): RunRenderer {
  const { stdout, stderr, colors: c, isQuiet } = options;
  const toView = createEventView();
  let isNewCall = false;
  let isMidLine = false;
  const answerText = createControlNeutralizer();
  const note = (line: string) => {
    // On a terminal both streams share a screen: end the answer's line before a progress line.
    if (isMidLine && stdout.isTTY) {
      stdout.write('\n');
      isMidLine = false;
    }
    stderr.write(line + '\n');
  };
  const show = (item: ViewItem) => {
    switch (item.kind) {
      case 'answer': {
        const text = answerText.push(item.text);
        if (text === '') return;
        // A new model call's text starts on its own line, so two answers never run together.
        if (isNewCall && isMidLine) stdout.write('\n');
        isNewCall = false;
        stdout.write(text);
        isMidLine = !text.endsWith('\n');
        return;
      }
      case 'model-call-ended':
        isNewCall = true;
        return;
      case 'tool-finished': {
        if (isQuiet) return;
        const { approval } = item;
        const denial =
          approval?.outcome === 'denied'
            ? approval.rule
              ? `denied by ${neutralizeControl(approval.rule, ONE_LINE)}`
              : 'denied'
            : undefined;
        const status = item.ok ? c.green('ok') : c.red(denial ?? 'failed');
        note(`${c.dim('•')} ${item.label} ${status} ${c.dim(`${item.durationMs} ms`)}`);
        return;
      }
      case 'note':
        if (item.isEssential || !isQuiet) note(item.isDim ? c.dim(item.text) : item.text);
        return;
      case 'answer-ended': {
        const rest = answerText.end();
        if (rest !== '') stdout.write(rest);
        if (isMidLine || rest !== '') stdout.write('\n');
        isMidLine = false;
        return;
      }
      case 'turn-ended':
        if (!isQuiet) note(c.dim(formatUsageLine(item.done)));
        return;
      case 'thinking':
      case 'tool-started':
        return;
    }
  };
  return { render: (event) => toView(event).forEach(show) };
}
