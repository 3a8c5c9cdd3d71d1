import type { AgentEvent } from '../../../agent/index.js';
import {
  createControlNeutralizer,
  neutralizeControl,
} from '../../../shared/terminal/neutralize-control.js';
import { createEventView, type ViewItem } from '../../agent-view/view-items.js';
import type { ChatOutput } from '../chat-session.js';
import { createMarkdownStream } from '../render-markdown-stream.js';
import { collapseLines, readCommandOutput, type CommandOutput } from './command-output.js';
import { createSpinner } from './spinner.js';
import { describeToolStatus } from './tool-status.js';

/** One turn on screen: the answer, the spinner while waiting, each call's status and output. */
export interface TurnView {
  render(event: AgentEvent): void;
  /** Before a question to the user: the spinner stops and the answer's line ends. Call the result once answered. */
  pauseForPrompt(): () => void;
  /** After the loop, whatever happened: the spinner is gone, unfinished text written. */
  end(): void;
}

export interface TurnViewOptions {
  output: ChatOutput;
  /** The turn's abort signal: a call that ends after it fired was interrupted. */
  signal: AbortSignal;
  /** Given each command's whole output (already redacted), for /output. */
  keepCommandOutput(command: string, text: string): void;
  /** Whether thinking is shown right now (Ctrl-T switches it mid-turn); shown when absent. */
  showsThinking?: () => boolean;
  /** A turn of the past shown again (the resume recap): no spinner, no durations. */
  isRecap?: boolean;
  now?: () => number;
}

/** Marks where the model's thinking begins, so it reads as thinking even without colours. */
const THINKING_LABEL = '✻ thinking';
/** Thinking lines are indented under their label. */
const THINKING_INDENT = '  ';

/**
 * Renders the agent's events for a person: the answer streams to stdout (Markdown, wrapped, the
 * unfinished line shown as it comes); on stderr a spinner with the elapsed time and tokens while
 * the model or a command works, then `• bash npm test exit 1 41 ms` per call, a command's output
 * folded to its first and last lines. Durations leave out the time spent at an approval prompt.
 * Everything from the model or a tool is neutralised before it is coloured or written.
 */
export function createTurnView(options: TurnViewOptions): TurnView {
  const { output, signal } = options;
  const { stdout, stderr, colors: c } = output;
  const now = options.now ?? Date.now;
  const isLive = stdout.isTTY === true;
  const answer = createMarkdownStream(
    stdout,
    output.answerColors,
    output.isMarkdown,
    isLive ? { columns: () => stdout.columns, rows: () => stdout.rows } : undefined,
  );
  const spinner =
    stderrIsTerminal(output) && options.isRecap !== true
      ? createSpinner(stderr as NodeJS.WriteStream, c, now)
      : undefined;
  const showsThinking = options.showsThinking ?? (() => true);
  const toView = createEventView();
  /** The label of each call, for the spinner after a prompt. */
  const labels = new Map<string, string>();
  const promptWaits = new Map<string, number>();
  const thinking = createControlNeutralizer();
  let currentCall: string | undefined;
  let isMidLine = false;
  let isNewCall = false;
  let isThinkingOpen = false;
  let isThinkingAtLineStart = true;
  // An answer's text is held back until it has more than whitespace: a blank reply shows nothing.
  let heldText = '';
  let hasAnswerText = false;
  let tokensIn = 0;
  let tokensOut = 0;

  /** Ends the answer's line: always before more answer text, on a terminal before anything on stderr. */
  const breakLine = (always: boolean) => {
    if (output.isMarkdown) answer.endLine();
    else if (isMidLine && (always || isLive)) answer.write('\n');
    isMidLine = false;
  };
  const note = (line: string) => {
    spinner?.stop();
    breakLine(false);
    stderr.write(`${line}\n`);
  };
  const showResult = (item: Extract<ViewItem, { kind: 'tool-finished' }>) => {
    const command = item.tool === 'bash' ? readCommandOutput(item.content) : undefined;
    const status = describeToolStatus({
      ok: item.ok,
      approval: item.approval,
      isInterrupted: signal.aborted,
      command,
    });
    const durationMs = Math.max(0, item.durationMs - (promptWaits.get(item.id) ?? 0));
    const shown = status.isGood ? c.green(status.text) : c.red(status.text);
    const duration = options.isRecap === true ? '' : ` ${c.dim(`${durationMs} ms`)}`;
    note(`${c.dim('•')} ${item.label} ${shown}${duration}`);
    if (command !== undefined && command.text !== '') showCommandOutput(item, command);
  };

  const showCommandOutput = (
    item: Extract<ViewItem, { kind: 'tool-finished' }>,
    command: CommandOutput,
  ) => {
    const args = item.call?.arguments as { command?: unknown } | undefined;
    options.keepCommandOutput(typeof args?.command === 'string' ? args.command : '', command.text);
    const width = Math.max(20, ((stderr as NodeJS.WriteStream).columns ?? 100) - 4);
    const folded = collapseLines(command.text);
    const line = (text: string) => {
      const shown = neutralizeControl(text, { lineBreaks: 'show' });
      const cut = shown.length > width ? `${shown.slice(0, width - 1)}…` : shown;
      stderr.write(`  ${c.dim('│')} ${c.dim(cut)}\n`);
    };
    folded.head.forEach(line);
    if (folded.hidden > 0)
      stderr.write(
        `  ${c.dim('│')} ${c.yellow(`… ${folded.hidden} more lines (/output shows them all)`)}\n`,
      );
    folded.tail.forEach(line);
  };

  /** Thinking, labelled, indented and dim; while hidden only the label shows that the model thinks. */
  const showThinking = (text: string) => {
    if (!isThinkingOpen) {
      spinner?.stop();
      breakLine(false);
      const label = showsThinking()
        ? THINKING_LABEL
        : `${THINKING_LABEL} (hidden; Ctrl-T shows it)`;
      stderr.write(`${c.dim(c.italic(label))}\n`);
      isThinkingOpen = true;
      isThinkingAtLineStart = true;
    }
    if (!showsThinking()) return;
    const lines = text.split('\n');
    const indented = lines
      .map((line, index) => {
        const isLineStart = index > 0 || isThinkingAtLineStart;
        return line === '' ? '' : `${isLineStart ? THINKING_INDENT : ''}${line}`;
      })
      .join('\n');
    stderr.write(c.dim(indented));
    isThinkingAtLineStart = text.endsWith('\n');
  };

  const closeThinking = () => {
    if (!isThinkingOpen) return;
    if (!isThinkingAtLineStart) stderr.write('\n');
    isThinkingOpen = false;
    isThinkingAtLineStart = true;
  };

  /** The text to show for a delta: nothing while the answer is only whitespace, then all of it but leading blank lines. */
  const visibleAnswer = (text: string): string => {
    if (hasAnswerText) return text;
    heldText += text;
    if (heldText.trim() === '') return '';
    hasAnswerText = true;
    const shown = heldText.replace(/^\s*\n/u, '');
    heldText = '';
    return shown;
  };

  const waitForModel = () => spinner?.start('waiting for the model');
  waitForModel();

  const show = (item: ViewItem) => {
    if (item.kind !== 'thinking') closeThinking();
    switch (item.kind) {
      case 'thinking': {
        const text = thinking.push(item.text);
        if (text !== '') showThinking(text);
        return;
      }
      case 'answer': {
        const text = visibleAnswer(item.text);
        if (text === '') return;
        spinner?.stop();
        // A new model call's text starts on its own line, so two answers never run together.
        if (isNewCall) breakLine(true);
        isNewCall = false;
        answer.write(text);
        isMidLine = !text.endsWith('\n');
        return;
      }
      case 'tool-started':
        labels.set(item.id, item.label);
        currentCall = item.id;
        spinner?.stop();
        breakLine(false);
        spinner?.start(`running ${item.label}`);
        return;
      case 'tool-finished':
        showResult(item);
        currentCall = undefined;
        waitForModel();
        return;
      case 'model-call-ended':
        isNewCall = true;
        hasAnswerText = false;
        heldText = '';
        tokensIn += item.inputTokens;
        tokensOut += item.outputTokens;
        spinner?.setDetail(
          `${tokensIn.toLocaleString('en-US')} tokens in · ${tokensOut.toLocaleString('en-US')} out`,
        );
        return;
      case 'note':
        note(item.isDim ? c.dim(item.text) : item.text);
        return;
      case 'answer-ended':
        spinner?.stop();
        breakLine(true);
        answer.end();
        return;
      case 'turn-ended':
        return;
    }
  };

  return {
    render: (event) => toView(event).forEach(show),
    pauseForPrompt() {
      spinner?.stop();
      breakLine(false);
      const startedAt = now();
      const call = currentCall;
      return () => {
        if (call !== undefined)
          promptWaits.set(call, (promptWaits.get(call) ?? 0) + now() - startedAt);
        if (call !== undefined && !signal.aborted) {
          const label = labels.get(call);
          spinner?.start(label === undefined ? 'working' : `running ${label}`);
        }
      };
    },
    end() {
      spinner?.stop();
      breakLine(false);
      answer.end();
    },
  };
}

function stderrIsTerminal(output: ChatOutput): boolean {
  return (output.stderr as Partial<NodeJS.WriteStream>).isTTY === true;
}
