import type { Colors } from '../../terminal.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Redraws per second: enough to look alive, few enough to cost nothing. */
const FRAME_MS = 100;
const CLEAR_LINE = '\r\u001b[2K';

/** The one-line "working" indicator under the conversation (stderr, terminals only). */
export interface Spinner {
  /** Shows `label` (already neutralised) with the time since this call; replaces what was shown. */
  start(label: string): void;
  /** What follows the time (the tokens used so far, once known); already neutralised. */
  setDetail(detail: string): void;
  /** Takes the line away, leaving the cursor at its start; safe when nothing is shown. */
  stop(): void;
  readonly isSpinning: boolean;
}

/**
 * `⠙ waiting for the model · 3.2s · 1,250 tokens in · 80 out`, redrawn in place on one line cut to the
 * terminal's width. Drawn at once on start, so it shows within the first frame.
 */
export function createSpinner(
  stream: { write(text: string): unknown; columns?: number },
  c: Colors,
  now: () => number = Date.now,
): Spinner {
  let timer: NodeJS.Timeout | undefined;
  let label = '';
  let startedAt = 0;
  let frame = 0;
  let detail = '';

  const draw = () => {
    const seconds = ((now() - startedAt) / 1000).toFixed(1);
    const text = `${label} · ${seconds}s${detail === '' ? '' : ` · ${detail}`}`;
    const width = Math.max(10, (stream.columns ?? 80) - 3);
    const shown = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    stream.write(`${CLEAR_LINE}${c.cyan(FRAMES[frame % FRAMES.length]!)} ${c.dim(shown)}`);
    frame += 1;
  };

  return {
    start(next) {
      label = next;
      startedAt = now();
      if (timer === undefined) {
        timer = setInterval(draw, FRAME_MS);
        // The chat must be able to exit even if a spinner is left running by mistake.
        timer.unref();
      }
      draw();
    },
    setDetail(next) {
      detail = next;
    },
    stop() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      stream.write(CLEAR_LINE);
    },
    get isSpinning() {
      return timer !== undefined;
    },
  };
}
