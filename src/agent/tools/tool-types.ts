import type { z } from 'zod';
import type {
  ActionOfKind,
  ToolAction,
  ToolKind,
  ToolName,
} from '../../safety/policy/tool-action.js';
import type { Interaction } from '../authorize/interaction.js';

/** How an MCP server's tool is named to the model: `mcp__<server>__<tool>`, sanitised and capped. */
export type McpToolName = `mcp__${string}`;

/** Every name a tool can have: the built-in ones and those of MCP servers. */
export type AgentToolName = ToolName | McpToolName;

/** The todo list the `todo` tool replaces and the system prompt shows. */
export interface TodoItem {
  id: string;
  task: string;
  status: 'pending' | 'in_progress' | 'done';
}

/** What a tool wants to do, shown to the policy and (in chat) to the user before it happens. */
export interface ApprovalRequest {
  tool: AgentToolName;
  toolCallId: string;
  action: ToolAction;
  /** Human preview: a unified diff for write tools; command, cwd, timeout and sandbox for bash; the URL for webfetch. */
  preview?: string;
  /** What answering "always" grants, in words (set by the authorizer before it asks). */
  always?: string;
}

/** What defineTool hands the authorizer: the content-free action, and how to build the preview. */
export interface AuthorizationRequest {
  tool: AgentToolName;
  toolCallId: string;
  action: ToolAction;
  /** Builds the preview (it may read file content); called only when someone is to approve the call. */
  preparePreview?: () => Promise<string | undefined>;
}

export type Authorization =
  { allowed: true; rule?: string } | { allowed: false; rule?: string; reason: string };

/** Records file state before a mutating tool changes it, so the last turn can be undone. */
export interface CheckpointRecorder {
  /** Call before writing `absolutePath` (existing or not); the first call per turn and file wins. */
  beforeFileChange(absolutePath: string): Promise<void>;
  /** Call before a shell command runs (snapshots the git work tree when there is one). */
  beforeCommand(): Promise<void>;
}

/** How shell commands run; from config, never from the model. */
export interface ShellSettings {
  sandbox: 'auto' | 'on' | 'off';
  /** Environment variable names the user config lets through the credential scrub. */
  allowedEnvNames: readonly string[];
  /** The environment commands start from (before scrubbing): the CLI passes process.env. */
  baseEnv: Readonly<Record<string, string | undefined>>;
  /** Whether sandboxed commands get the network: `agent.network` in the user config, nothing else. */
  allowNetwork: boolean;
  /** `agent.homePaths` from the user config: places in HOME the sandbox shows read-only. */
  homePaths?: readonly string[];
  /**
   * Real paths of secret-bearing files the user approved reading in this session: the sandbox stops
   * covering them. The read tool adds to it; it lives as long as the session.
   */
  revealedFiles?: Set<string>;
  /** Plan mode: hooks run with the workspace read-only. */
  workspaceAccess?: 'read-write' | 'read-only';
}

/** Everything a tool may use: no singletons, no process globals. */
export interface ToolContext {
  /** The workspace root as given; tools confine every path to its real path. */
  workspaceRoot: string;
  signal: AbortSignal;
  toolCallId: string;
  /** The session's redactor (stable placeholders across the session). */
  redact(text: string): string;
  /** Asks the policy (and in chat, the user). Called by defineTool; tools never call it themselves. */
  authorize(request: AuthorizationRequest): Promise<Authorization>;
  /** Whether the Read rules let tools read a workspace path (relative, POSIX) without asking. */
  canRead(relativePath: string, isFolder?: boolean): boolean;
  checkpoints: CheckpointRecorder;
  todos: { get(): readonly TodoItem[]; set(items: readonly TodoItem[]): void };
  shell: ShellSettings;
  /** Present exactly when someone can answer (chat); the `ask` tool puts its question here. */
  interaction?: Interaction;
  now(): number;
}

/** A tool's successful answer: a JSON object; defineTool adds `ok: true`. */
export type ToolOutput = Record<string, unknown>;

/** What a call would do, worked out from its arguments alone: the action the policy judges, and the resolved target. */
export interface ToolIntent<Target, Action extends ToolAction = ToolAction> {
  action: Action;
  target: Target;
}

/** What a tool's plan step prepared once the call may go ahead: a preview, and data for execute. */
export interface ToolPlan<Data> {
  preview?: string;
  data: Data;
}

export interface ToolSpec<
  Schema extends z.ZodType,
  Target,
  Data,
  Kind extends ToolKind = ToolKind,
> {
  name: AgentToolName;
  /** What the tool is (read, write, bash, webfetch, ask, mcp): the mode table offers and judges it by this. */
  kind: Kind;
  description: string;
  schema: Schema;
  /** Longest result, in characters of compact JSON, before string fields are cut (head and tail). */
  maxResultChars?: number;
  /**
   * What the call would do, from the arguments alone: paths resolved, never a file's content read,
   * so a refusal cannot depend on what a file holds. Throw ToolFailure for an impossible call.
   */
  intend(
    args: z.infer<Schema>,
    context: ToolContext,
  ): Promise<ToolIntent<Target, ActionOfKind<Kind>>> | ToolIntent<Target, ActionOfKind<Kind>>;
  /** Prepares the call once it is allowed or about to be asked about (may read content); the preview comes from here. */
  plan(
    args: z.infer<Schema>,
    context: ToolContext,
    target: Target,
  ): Promise<ToolPlan<Data>> | ToolPlan<Data>;
  /** Does it, once the policy allowed it. */
  execute(args: z.infer<Schema>, context: ToolContext, data: Data): Promise<ToolOutput>;
}

/** The model-facing definition plus the one entry point the loop calls. */
export interface AgentTool {
  name: AgentToolName;
  /** The kind it declared: the mode table decides by it whether the tool is offered. */
  kind: ToolKind;
  description: string;
  /** Offered in plan mode too (an MCP tool its server marks read-only); built-in tools use the mode table. */
  isOfferedInPlan?: boolean;
  /** JSON Schema of the arguments, generated from the zod schema. */
  inputSchema: Record<string, unknown>;
  /** Validates, plans, authorizes, executes, caps and redacts; never throws. */
  run(rawArguments: unknown, context: ToolContext): Promise<ToolRunResult>;
}

export interface ToolRunResult {
  ok: boolean;
  /** Compact, redacted JSON for the model. */
  content: string;
  /** Set when the policy (or the user) refused the call. */
  denied?: { rule?: string; reason: string };
}

/** Thrown inside plan/execute for an expected failure; becomes `{"ok":false,"error":message}`. */
export class ToolFailure extends Error {
  override name = 'ToolFailure';
}
