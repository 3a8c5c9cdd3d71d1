import { StringDecoder } from 'node:string_decoder';
import { neutralizeControl } from '../../../shared/terminal/neutralize-control.js';
import { createInterruptHandlers } from './interrupt-handlers.js';
import type { LineEditor, ReadResult } from './line-editor-types.js';

interface PipedEditorOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  signalSource: NodeJS.EventEmitter;
}

/**
 * The editor when the input is not a terminal: no raw mode, no escape codes, no history. Each
 * complete line is a message, a line ending in `\` continues on the next one, blank lines are
 * skipped. Lines that arrive while no read is pending wait their turn. Ctrl-C is then a SIGINT,
 * passed to onInterrupt handlers while a turn runs.
 */
export function createPipedLineEditor(options: PipedEditorOptions): LineEditor {
  const { input, output, signalSource } = options;
  const decoder = new StringDecoder('utf8');
  const lines: string[] = [];
  let partial = '';
  let hasEnded = false;
  let isReading = false;
  let wake: (() => void) | undefined;

  const notify = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };

  const onData = (chunk: Buffer | string) => {
    partial += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    const complete = partial.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    notify();
  };

  const onEnd = () => {
    if (hasEnded) return;
    partial += decoder.end();
    if (partial !== '') lines.push(partial);
    partial = '';
    hasEnded = true;
    notify();
  };

  const nextLine = async (): Promise<string | null> => {
    while (lines.length === 0) {
      if (hasEnded) return null;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    return lines.shift() ?? null;
  };

  const onSignal = () => {
    if (!isReading) interrupts.fire();
  };
  const interrupts = createInterruptHandlers((count) => {
    signalSource.off('SIGINT', onSignal);
    if (count > 0) signalSource.on('SIGINT', onSignal);
  });

  const exclusively = async <T>(work: () => Promise<T>): Promise<T> => {
    if (isReading) throw new Error('the line editor is already reading');
    isReading = true;
    try {
      return await work();
    } finally {
      isReading = false;
    }
  };

  const readMessage = async (): Promise<ReadResult> => {
    const parts: string[] = [];
    for (;;) {
      const line = await nextLine();
      if (line === null) {
        const text = parts.join('\n');
        return text.trim() === '' ? { kind: 'eof' } : { kind: 'submit', text };
      }
      if (line.endsWith('\\')) {
        parts.push(line.slice(0, -1));
        continue;
      }
      parts.push(line);
      const text = parts.join('\n');
      if (text.trim() !== '') return { kind: 'submit', text };
      parts.length = 0;
    }
  };

  input.on('data', onData);
  input.on('end', onEnd);
  input.on('error', onEnd);
  input.resume();

  return {
    read: () => exclusively(readMessage),
    ask: (question) =>
      exclusively(async () => {
        output.write(question);
        const answer = await nextLine();
        // Echo the answer so a log of stderr shows what was decided.
        output.write(`${neutralizeControl(answer ?? '', { lineBreaks: 'show' })}\n`);
        return answer;
      }),
    onInterrupt: interrupts.add,
    // Piped input has no keys beyond its lines.
    onKey: () => () => undefined,
    close() {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onEnd);
      input.pause();
      signalSource.off('SIGINT', onSignal);
      onEnd();
    },
  };
}
