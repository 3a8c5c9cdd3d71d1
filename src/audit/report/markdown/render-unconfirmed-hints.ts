import type { AuditReport } from '../../types.js';
import { listUnconfirmedHints } from '../list-unconfirmed-hints.js';
import { formatRowGroups } from './format-row-groups.js';

/**
 * `## Hints the model did not confirm` (model runs): the deterministic hints no verified finding
 * bears out, and those in files the model was not sent, grouped by rule. Null offline, where the
 * hints are the report's body.
 */
export function renderUnconfirmedHints(report: AuditReport): string | null {
  if (report.mode === 'offline') return null;
  const { notConfirmed, notSent } = listUnconfirmedHints(report);
  const parts = ['## Hints the model did not confirm'];
  if (notConfirmed.length === 0 && notSent.length === 0) {
    parts.push('None: every security hint is at the place of a verified finding.');
    return parts.join('\n\n');
  }
  parts.push(
    'Deterministic pattern matches that no verified finding bears out. The model may have judged them false, or missed them: each is worth a glance, and none counts for `--fail-on`.',
  );
  if (notConfirmed.length > 0)
    parts.push('### Reviewed, not confirmed', formatRowGroups(notConfirmed));
  if (notSent.length > 0) {
    parts.push(
      '### Not sent to the model',
      'In files outside `--scope`, left out by `--riskiest`, or in a chunk that failed: only the deterministic checks saw them.',
      formatRowGroups(notSent),
    );
  }
  return parts.join('\n\n');
}
