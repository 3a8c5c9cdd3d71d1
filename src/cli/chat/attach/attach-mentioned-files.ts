import { existsSync } from 'node:fs';
import { createAuthorizer } from '../../../agent/authorize/create-authorizer.js';
import type { Interaction } from '../../../agent/authorize/interaction.js';
import type { SessionGrants } from '../../../agent/authorize/session-grants.js';
import { readTool } from '../../../agent/tools/read-tool.js';
import type { ToolContext } from '../../../agent/tools/tool-types.js';
import { resolveWorkspacePath } from '../../../safety/paths/resolve-workspace-path.js';
import type { ParsedPermissionRules } from '../../../safety/policy/permission-rule.js';
import { createReadCheck } from '../../../safety/policy/read-access.js';
import type { SafetyMode } from '../../../safety/policy/safety-mode.js';
import { findMentions } from './find-mentions.js';

export interface AttachOptions {
  workspaceRoot: string;
  mode: SafetyMode;
  rules: ParsedPermissionRules;
  grants: SessionGrants;
  redact(text: string): string;
  /** The person attaching: asked about a read the policy marks ask (a secret-bearing file), as for the read tool. */
  interaction: Interaction;
  signal: AbortSignal;
}

/** The prompt with its files appended, or why it cannot be sent as typed. */
export type AttachResult =
  | { ok: true; prompt: string; attached: string[]; notFound: string[] }
  | { ok: false; problems: string[] };

/**
 * `@path` in a prompt attaches the file: it is read by the read tool itself, through the same
 * door (policy decision and approval first, then the redactor and the size cap), so a file the
 * tool may not read is refused here exactly as there and a secret reaches the model redacted.
 * A mention that names no file is left as text; any refusal stops the prompt, so the user decides.
 */
export async function attachMentionedFiles(
  prompt: string,
  options: AttachOptions,
): Promise<AttachResult> {
  const attachments: string[] = [];
  const attached: string[] = [];
  const notFound: string[] = [];
  const problems: string[] = [];
  for (const [index, mentioned] of findMentions(prompt).entries()) {
    const resolved = resolveWorkspacePath(options.workspaceRoot, mentioned, 'read');
    if (resolved.ok && !existsSync(resolved.absolutePath)) {
      notFound.push(mentioned);
      continue;
    }
    const result = await readTool.run({ path: mentioned }, createContext(options, index));
    const parsed = JSON.parse(result.content) as ReadResult;
    if (!result.ok || parsed.content === undefined) {
      problems.push(`@${mentioned}: ${parsed.error ?? 'could not be read'}`);
      continue;
    }
    attached.push(parsed.path ?? mentioned);
    attachments.push(formatAttachment(parsed, mentioned));
  }
  if (problems.length > 0) return { ok: false, problems };
  const text = attachments.length === 0 ? prompt : `${prompt}\n\n${attachments.join('\n\n')}`;
  return { ok: true, prompt: text, attached, notFound };
}

interface ReadResult {
  path?: string;
  content?: string;
  lines_shown?: number;
  total_lines?: number;
  has_more?: boolean;
  error?: string;
}

function formatAttachment(read: ReadResult, mentioned: string): string {
  const shown = read.has_more
    ? `lines 1-${read.lines_shown} of ${read.total_lines}; read the rest with the read tool`
    : `${read.total_lines} lines`;
  return `Attached file ${read.path ?? mentioned} (${shown}, numbered as the read tool numbers them):\n${read.content}`;
}

/** A tool context for one read: the chat's policy, grants, redactor and interaction; nothing that writes. */
function createContext(options: AttachOptions, index: number): ToolContext {
  return {
    workspaceRoot: options.workspaceRoot,
    signal: options.signal,
    toolCallId: `attach-${index + 1}`,
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
