import type { ApprovalRecord } from '../../../agent/index.js';
import { neutralizeControl } from '../../../shared/terminal/neutralize-control.js';
import type { CommandOutput } from './command-output.js';

/** How a call ended, in the user's words: `ok`, `exit 2`, `interrupted`, `denied by you`, `denied by rule Bash(rm:*)`. */
export interface ToolStatus {
  text: string;
  isGood: boolean;
}

/**
 * The status of one finished call. A refusal says who refused: the user at the prompt (an ask that
 * ended denied), the mode, or the rule that matched; a call stopped by Ctrl-C is `interrupted`
 * whatever its result says, and a command reports its exit.
 */
export function describeToolStatus(input: {
  ok: boolean;
  approval: ApprovalRecord | undefined;
  isInterrupted: boolean;
  command: CommandOutput | undefined;
}): ToolStatus {
  const { approval, command } = input;
  if (approval?.outcome === 'denied') return { text: describeDenial(approval), isGood: false };
  if (input.isInterrupted || command?.isCancelled) return { text: 'interrupted', isGood: false };
  if (!input.ok) return { text: 'failed', isGood: false };
  if (command === undefined) return { text: 'ok', isGood: true };
  if (command.isTimedOut) return { text: 'timed out', isGood: false };
  if (command.signal !== null)
    return { text: `killed by ${oneLine(command.signal)}`, isGood: false };
  if (command.exitCode !== null && command.exitCode !== 0)
    return { text: `exit ${command.exitCode}`, isGood: false };
  return { text: 'ok', isGood: true };
}

function describeDenial(approval: ApprovalRecord): string {
  // An ask that ended denied was answered no by the user (with no one to ask, the decision is deny).
  if (approval.decision === 'ask') return 'denied by you';
  const rule = approval.rule;
  if (rule === undefined) return 'denied';
  if (rule.startsWith('mode:')) return `denied by ${oneLine(rule.slice(5))} mode`;
  return `denied by rule ${oneLine(rule)}`;
}

function oneLine(text: string): string {
  return neutralizeControl(text, { lineBreaks: 'show' });
}
