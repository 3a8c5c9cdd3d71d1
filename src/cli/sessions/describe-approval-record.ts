import type { ApprovalRecord } from '../../agent/index.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';

/**
 * One tool call's approval as `oy sessions show` prints it: what the call was about to do, who settled
 * it (the policy and its rule, the user and their answer with the exact grant, or no one to ask), on one
 * line with every field's control characters shown.
 */
export function describeApprovalRecord(record: ApprovalRecord): string {
  const what = show(record.summary);
  const rule = record.rule === undefined ? '' : show(record.rule);
  if (record.answer !== undefined) {
    const by = record.askedBy === undefined ? '' : ` (by ${show(record.askedBy)})`;
    return `asked: ${what}${by}; ${describeAnswer(record)}`;
  }
  if (record.isUnattended)
    return `refused: ${what} (${rule} asks, and no one could answer in this non-interactive run)`;
  const verdict = record.outcome === 'allowed' ? 'allowed' : 'refused';
  return rule === '' ? `${verdict}: ${what}` : `${verdict}: ${what} (by ${rule})`;
}

/** The answer, with what "always" granted: the exact rules, or that nothing could be remembered. */
function describeAnswer(record: ApprovalRecord): string {
  if (record.answer !== 'always') return `the user said ${record.answer ?? 'nothing'}`;
  const granted = record.granted ?? [];
  if (granted.length === 0)
    return 'the user said always, which could not be remembered: this call only';
  return `the user said always, granting ${granted.map(show).join(', ')} for this session`;
}

function show(text: string): string {
  return neutralizeControl(text, { lineBreaks: 'show' });
}
