/** Lines shown from the start and from the end of a command's output before the rest is folded. */
export const HEAD_LINES = 4;
export const TAIL_LINES = 4;

/** What a finished `bash` call printed and how it ended, read from the result the model got (already redacted). */
export interface CommandOutput {
  /** stdout, then stderr, without the trailing line break. */
  text: string;
  exitCode: number | null;
  signal: string | null;
  isTimedOut: boolean;
  isCancelled: boolean;
}

/** The bash result's fields, or undefined when the content is not a bash result (a refusal, an error). */
export function readCommandOutput(content: string): CommandOutput | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const result = parsed as Record<string, unknown>;
  if (!('exit_code' in result) || typeof result.stdout !== 'string') return undefined;
  const streams = [result.stdout, typeof result.stderr === 'string' ? result.stderr : '']
    .map((text) => text.replace(/\n+$/u, ''))
    .filter((text) => text !== '');
  return {
    text: streams.join('\n'),
    exitCode: typeof result.exit_code === 'number' ? result.exit_code : null,
    signal: typeof result.signal === 'string' ? result.signal : null,
    isTimedOut: result.timed_out === true,
    isCancelled: result.cancelled === true,
  };
}

/** The first and last lines of `text`, and how many between them are left out (0 when it is short). */
export function collapseLines(
  text: string,
  head = HEAD_LINES,
  tail = TAIL_LINES,
): { head: string[]; tail: string[]; hidden: number } {
  const lines = text === '' ? [] : text.split('\n');
  // Folding one or two lines saves nothing: the note takes a line itself.
  if (lines.length <= head + tail + 2) return { head: lines, tail: [], hidden: 0 };
  return {
    head: lines.slice(0, head),
    tail: lines.slice(-tail),
    hidden: lines.length - head - tail,
  };
}
