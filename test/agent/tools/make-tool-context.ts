import { decide } from '../../../src/safety/policy/decide.js';
import { createReadCheck } from '../../../src/safety/policy/read-access.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';
import { createRedactor } from '../../../src/safety/redact/index.js';
import type {
  ApprovalRequest,
  TodoItem,
  ToolContext,
} from '../../../src/agent/tools/tool-types.js';

export interface TestToolContext extends ToolContext {
  /** Every authorization request the tool made, in order. */
  approvals: ApprovalRequest[];
  /** Every checkpoint call, in order: `file:<abs>` or `command`. */
  checkpointCalls: string[];
}

export interface TestToolContextOptions {
  mode?: SafetyMode;
  isInteractive?: boolean;
  allow?: string[];
  ask?: string[];
  deny?: string[];
  /** What an interactive user answers to an ask (default: no). */
  answer?: boolean;
  overrides?: Partial<ToolContext>;
}

/** A real-policy context for tool tests: decide() with the given mode and rules, a real redactor. */
export function makeToolContext(
  root: string,
  options: TestToolContextOptions = {},
): TestToolContext {
  const redactor = createRedactor();
  const rules = parsePermissionRules({
    allow: options.allow ?? [],
    ask: options.ask ?? [],
    deny: options.deny ?? [],
  });
  let todos: readonly TodoItem[] = [];
  const approvals: ApprovalRequest[] = [];
  const checkpointCalls: string[] = [];
  const context: TestToolContext = {
    workspaceRoot: root,
    signal: new AbortController().signal,
    toolCallId: 'call_test',
    redact: (text) => redactor.redact(text).text,
    async authorize(authorizationRequest) {
      const { preparePreview, ...fields } = authorizationRequest;
      const request: ApprovalRequest = fields;
      approvals.push(request);
      const decision = await decide(request.action, {
        mode: options.mode ?? 'auto',
        rules,
        sessionGrants: [],
        isInteractive: options.isInteractive ?? false,
        workspaceRoot: root,
      });
      // As the real authorizer, the preview is built only for a call someone is asked about; it is
      // also recorded for an allowed call (which may read content anyway), so tests can see it.
      const isAsked = decision.decision === 'ask';
      if (decision.decision === 'allow' || isAsked) {
        const preview = await preparePreview?.();
        if (preview !== undefined) request.preview = preview;
      }
      if (decision.decision === 'allow')
        return { allowed: true, ...(decision.rule ? { rule: decision.rule } : {}) };
      if (isAsked && options.answer === true) return { allowed: true };
      return {
        allowed: false,
        reason: decision.decision === 'ask' ? 'the user said no' : decision.reason,
        ...(decision.rule ? { rule: decision.rule } : {}),
      };
    },
    canRead: createReadCheck(rules, root),
    checkpoints: {
      async beforeFileChange(absolutePath) {
        checkpointCalls.push(`file:${absolutePath}`);
      },
      async beforeCommand() {
        checkpointCalls.push('command');
      },
    },
    todos: {
      get: () => todos,
      set: (items) => {
        todos = items;
      },
    },
    shell: {
      sandbox: 'off',
      allowedEnvNames: [],
      baseEnv: { PATH: process.env.PATH },
      allowNetwork: false,
    },
    now: () => Date.now(),
    approvals,
    checkpointCalls,
    ...options.overrides,
  };
  return context;
}
