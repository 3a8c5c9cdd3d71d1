import type { AgentEvent } from '../events.js';
import { decide, type Decision } from '../../safety/policy/decide.js';
import type { ParsedPermissionRules } from '../../safety/policy/permission-rule.js';
import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import type { ApprovalRequest, Authorization } from '../tools/tool-types.js';
import type { SessionGrants } from './session-grants.js';

/** The user's answer at an approval prompt: `always` also grants a session rule. */
export type ApprovalAnswer = 'yes' | 'no' | 'always';

/** Asks the user about one call the policy marked `ask` (chat only). */
export type Approver = (request: ApprovalRequest, decision: Decision) => Promise<ApprovalAnswer>;

export type ApprovalEvent = Extract<AgentEvent, { type: 'approval' }>;

export interface AuthorizerOptions {
  mode: SafetyMode;
  rules: ParsedPermissionRules;
  grants: SessionGrants;
  isInteractive: boolean;
  workspaceRoot: string;
  approver?: Approver;
  /** Told about every decision and its outcome, for the loop's `approval` events. */
  onApproval(event: ApprovalEvent): void;
}

/** The ToolContext `authorize` for a run: decide() first, then the user for an ask. */
export function createAuthorizer(
  options: AuthorizerOptions,
): (request: ApprovalRequest) => Promise<Authorization> {
  return async (request) => {
    const decision = await decide(request.action, {
      mode: options.mode,
      rules: options.rules,
      sessionGrants: options.grants.rules,
      isInteractive: options.isInteractive,
      workspaceRoot: options.workspaceRoot,
    });
    const settled = await settle(request, decision, options);
    options.onApproval({
      type: 'approval',
      toolCallId: request.toolCallId,
      tool: request.tool,
      decision: decision.decision,
      outcome: settled.allowed ? 'allowed' : 'denied',
      ...(settled.rule === undefined ? {} : { rule: settled.rule }),
      reason: settled.allowed ? decision.reason : settled.reason,
    });
    return settled;
  };
}

async function settle(
  request: ApprovalRequest,
  decision: Decision,
  options: AuthorizerOptions,
): Promise<Authorization> {
  const rule = decision.rule === undefined ? {} : { rule: decision.rule };
  if (decision.decision === 'allow') return { allowed: true, ...rule };
  if (decision.decision === 'deny') return { allowed: false, ...rule, reason: decision.reason };
  // decide() only answers ask when the run is interactive; without an approver no one can say yes.
  if (!options.isInteractive || options.approver === undefined) {
    return {
      allowed: false,
      ...rule,
      reason: `${decision.reason}, and no one can approve it in this run, so it is refused`,
    };
  }
  const answer = await options.approver(request, decision);
  if (answer === 'no') {
    return {
      allowed: false,
      ...rule,
      reason: `${decision.reason}; the user said no. Do not retry it; ask what they want instead, or take another way`,
    };
  }
  if (answer === 'always') {
    const granted = options.grants.grant(request.action);
    if (granted.length > 0) return { allowed: true, rule: granted.join(', ') };
  }
  return { allowed: true, rule: 'user-approved' };
}
