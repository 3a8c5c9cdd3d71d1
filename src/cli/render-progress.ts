import type { AuditProgress, AuditStage } from '../audit/audit-options.js';
import { neutralizeControl } from '../shared/terminal/neutralize-control.js';

const STAGE_LABELS: Record<AuditStage, string> = {
  collect: 'collecting files',
  scan: 'reading, redacting, indexing',
  history: 'scanning commits for secrets',
  chunk: 'chunking',
  review: 'reviewing chunks',
  report: 'writing report',
};
/** Redraw a terminal bar at most this often, so progress never costs real time. */
const REDRAW_INTERVAL_MS = 80;

/**
 * Progress on stderr: an updating line on a terminal (stage, done/total, elapsed),
 * one plain line per stage otherwise.
 */
export function createProgressRenderer(stream: NodeJS.WriteStream, isQuiet: boolean) {
  const startedAt = Date.now();
  let lastStage: AuditStage | undefined;
  let lastDrawAt = 0;
  const printedStages = new Set<AuditStage>();
  const isTerminal = Boolean(stream.isTTY);
  const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)}s`;

  const render = (event: AuditProgress) => {
    if (isQuiet) return;
    const label = STAGE_LABELS[event.stage];
    const message =
      event.message === undefined
        ? undefined
        : neutralizeControl(event.message, { lineBreaks: 'show' });
    if (!isTerminal) {
      // One line per stage, when it completes; the start events of a stage have done < total or no total.
      const isStageEnd =
        event.done === event.total && (event.total > 0 || event.stage === 'collect');
      if (
        isStageEnd &&
        !printedStages.has(event.stage) &&
        (event.total > 0 || lastStage === event.stage)
      ) {
        printedStages.add(event.stage);
        stream.write(
          `${label}: ${event.done}/${event.total} (${elapsed()})${message ? `, ${message}` : ''}\n`,
        );
      }
      lastStage = event.stage;
      return;
    }
    const now = Date.now();
    const isFinal = event.done === event.total;
    if (event.stage === lastStage && !isFinal && now - lastDrawAt < REDRAW_INTERVAL_MS) return;
    lastStage = event.stage;
    lastDrawAt = now;
    const counts = event.total > 0 ? ` ${event.done}/${event.total}` : '';
    stream.write(`\r\x1b[2K${label}${counts} ${elapsed()}${message ? ` ${message}` : ''}`);
  };
  const finish = () => {
    if (isTerminal && !isQuiet && lastStage !== undefined) stream.write('\r\x1b[2K');
  };
  return { render, finish };
}
