import type { ParsedPermissionRules } from '../../safety/policy/permission-rule.js';
import { createReadCheck } from '../../safety/policy/read-access.js';
import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import { createAuthorizer } from '../authorize/create-authorizer.js';
import type { Interaction } from '../authorize/interaction.js';
import type { SessionGrants } from '../authorize/session-grants.js';
import { readTool } from './read-tool.js';
import type { ToolContext, ToolRunResult } from './tool-types.js';

export interface MentionedFileOptions {
  workspaceRoot: string;
  mode: SafetyMode;
  rules: ParsedPermissionRules;
  grants: SessionGrants;
  redact(text: string): string;
  /** The person attaching: asked about a read the policy marks ask (a secret-bearing file), as for the read tool. */
  interaction: Interaction;
  signal: AbortSignal;
}

/**
 * A file the user mentions in a prompt (`@path`), read by the read tool itself through the same door
 * (policy decision and approval first, then the redactor and the size cap), so a file the tool may
 * not read is refused here exactly as there and a secret reaches the model redacted.
 */
export function readMentionedFile(
  mentioned: string,
  callId: string,
  options: MentionedFileOptions,
): Promise<ToolRunResult> {
  return readTool.run({ path: mentioned }, createContext(options, callId));
}

/** A tool context for one read: the chat's policy, grants, redactor and interaction; nothing that writes. */
function createContext(options: MentionedFileOptions, callId: string): ToolContext {
  return {
    workspaceRoot: options.workspaceRoot,
    signal: options.signal,
    toolCallId: callId,
    redact: options.redact,
    authorize: createAuthorizer({
      mode: options.mode,
      rules: options.rules,
      grants: options.grants,
      workspaceRoot: options.workspaceRoot,
      interaction: options.interaction,
      redact: options.redact,
      onApproval: () => undefined,
    }),
    canRead: createReadCheck(options.rules, options.workspaceRoot),
    checkpoints: { beforeFileChange: async () => undefined, beforeCommand: async () => undefined },
    todos: { get: () => [], set: () => undefined },
    // The read tool runs no command; the strictest settings, should that ever change.
    shell: { sandbox: 'on', allowedEnvNames: [], baseEnv: {}, allowNetwork: false },
    now: Date.now,
  };
}
