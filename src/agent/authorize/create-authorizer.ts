import type { AgentEvent, ApprovalAnswer, ApprovalRecord } from '../events.js';
import { decide, type Decision } from '../../safety/policy/decide.js';
import type { ParsedPermissionRules } from '../../safety/policy/permission-rule.js';
import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import { splitCommand } from '../../safety/policy/split-command.js';
import type { ApprovalRequest, Authorization, AuthorizationRequest } from '../tools/tool-types.js';
import type { Interaction } from './interaction.js';
import { offerGrant, type GrantOffer } from './offer-grant.js';
import type { SessionGrants } from './session-grants.js';
import { summarizeAction } from './summarize-action.js';

export type { ApprovalAnswer } from '../events.js';

/** Asks the user about one call the policy marked `ask` (chat only). */
export type Approver = (request: ApprovalRequest, decision: Decision) => Promise<ApprovalAnswer>;

export type ApprovalEvent = Extract<AgentEvent, { type: 'approval' }>;

export interface AuthorizerOptions {
  mode: SafetyMode;
  rules: ParsedPermissionRules;
  grants: SessionGrants;
  workspaceRoot: string;
  /** Present when someone can answer an ask; without it an ask is refused. */
  interaction?: Interaction;
  /** The session's redactor: every text of the approval event passes it. */
  redact(text: string): string;
  /** Told about every decision and its outcome (the loop's `approval` events, the session's lines); awaited before the call goes on. */
  onApproval(event: ApprovalEvent): void | Promise<void>;
}

/** How an ask was settled, beyond allowed or not: the answer, and what "always" offered and granted. */
type Settled = Authorization & Pick<ApprovalRecord, 'answer' | 'askedBy' | 'offer' | 'granted'>;

/**
 * The ToolContext `authorize` for a run: decide() on the content-free action first; only for an ask
 * that someone can answer is the preview built (the one step that may read content), then the user asked.
 */
export function createAuthorizer(
  options: AuthorizerOptions,
): (request: AuthorizationRequest) => Promise<Authorization> {
  const { redact } = options;
  return async (request) => {
    const decision = await decide(request.action, {
      mode: options.mode,
      rules: options.rules,
      sessionGrants: options.grants.rules,
      isInteractive: options.interaction !== undefined,
      workspaceRoot: options.workspaceRoot,
    });
    const { answer, askedBy, offer, granted, ...settled } = await settle(
      request,
      decision,
      options,
    );
    await options.onApproval({
      type: 'approval',
      toolCallId: request.toolCallId,
      tool: request.tool,
      summary: summarizeAction(request.action, redact),
      decision: decision.decision,
      outcome: settled.allowed ? 'allowed' : 'denied',
      ...(settled.rule === undefined ? {} : { rule: redact(settled.rule) }),
      reason: redact(settled.allowed ? decision.reason : settled.reason),
      ...(answer === undefined ? {} : { answer }),
      ...(askedBy === undefined ? {} : { askedBy: redact(askedBy) }),
      ...(offer === undefined ? {} : { offer: redact(offer) }),
      ...(granted === undefined ? {} : { granted: granted.map(redact) }),
      ...(decision.isUnattended || (decision.decision === 'ask' && !options.interaction)
        ? { isUnattended: true }
        : {}),
    });
    return settled;
  };
}

async function settle(
  request: AuthorizationRequest,
  decision: Decision,
  options: AuthorizerOptions,
): Promise<Settled> {
  const rule = decision.rule === undefined ? {} : { rule: decision.rule };
  if (decision.decision === 'allow') return { allowed: true, ...rule };
  if (decision.decision === 'deny') return { allowed: false, ...rule, reason: decision.reason };
  // decide() only answers ask when someone can answer; this keeps a refusal should it ever say ask anyway.
  if (options.interaction === undefined) {
    return {
      allowed: false,
      ...rule,
      reason: `${decision.reason}, and no one can approve it in this run, so it is refused`,
    };
  }
  const offer = await offerFor(request);
  const preview = await request.preparePreview?.();
  const answer = await options.interaction.approve(
    {
      tool: request.tool,
      toolCallId: request.toolCallId,
      action: request.action,
      ...(preview === undefined ? {} : { preview }),
      always: offer.summary,
    },
    decision,
  );
  const asked = {
    answer,
    offer: offer.summary,
    ...(decision.rule === undefined ? {} : { askedBy: decision.rule }),
  };
  if (answer === 'no') {
    return {
      allowed: false,
      ...rule,
      reason: `${decision.reason}; the user said no. Do not retry it; ask what they want instead, or take another way`,
      ...asked,
    };
  }
  if (answer === 'always') {
    // The grant's exact scope: every rule of the offer (one already granted counts; it still holds).
    const scope = { ...asked, granted: offer.rules.map((granted) => granted.text) };
    const added = options.grants.add(offer.rules);
    if (added.length > 0) return { allowed: true, rule: added.join(', '), ...scope };
    return { allowed: true, rule: 'user-approved', ...scope };
  }
  return { allowed: true, rule: 'user-approved', ...asked };
}

/** What "always" would grant, from the command as the policy splits it. */
async function offerFor(request: AuthorizationRequest): Promise<GrantOffer> {
  const split =
    request.action.tool === 'bash' ? await splitCommand(request.action.command ?? '') : undefined;
  return offerGrant(request.action, split);
}
