import type { BatchEvent } from '../audit/review/batch/run-map-batch.js';
import { formatDuration } from '../shared/text/parse-duration.js';
import { neutralizeControl } from '../shared/terminal/neutralize-control.js';

/** A poll that changes nothing is said again after this long, so a long wait still shows it is alive. */
const QUIET_POLL_REPEAT_MS = 10 * 60_000;

/** `--batch` progress as lines on stderr: submitted or picked up, each poll that changes something, ended. */
export function createBatchEventRenderer(write: (line: string) => void, timeoutMs: number) {
  let lastPoll = '';
  let lastSaidAt = 0;
  return (event: BatchEvent): void => {
    const name = neutralizeControl(
      event.kind === 'polled' || event.kind === 'ended' ? event.status.id : event.batchId,
    );
    switch (event.kind) {
      case 'submitted':
        write(
          `batch ${name}: submitted ${event.requests} map call(s) at batch prices; waiting up to ${formatDuration(timeoutMs)} (Ctrl-C leaves it running, and the same command picks it up again)`,
        );
        return;
      case 'resumed':
        write(`batch ${name}: picked up from an earlier run (${event.requests} map call(s))`);
        return;
      case 'polled': {
        const { processingStatus, counts } = event.status;
        const state = `${neutralizeControl(processingStatus)}, ${counts.processing} processing`;
        if (state === lastPoll && event.elapsedMs - lastSaidAt < QUIET_POLL_REPEAT_MS) return;
        lastPoll = state;
        lastSaidAt = event.elapsedMs;
        write(`batch ${name}: ${state} (${formatDuration(event.elapsedMs)} waited)`);
        return;
      }
      case 'ended': {
        const { succeeded, errored, canceled, expired } = event.status.counts;
        write(
          `batch ${name}: ended, ${succeeded} succeeded, ${errored} errored, ${canceled} canceled, ${expired} expired`,
        );
        return;
      }
    }
  };
}
