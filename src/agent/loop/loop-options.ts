import type { HookSettings } from '../../config/hooks-schema.js';
import type { ModelClient } from '../../providers/types.js';
import type { CompactionInput, CompactionResult } from '../compact/compact-if-needed.js';
import type { ParsedPermissionRules } from '../../safety/policy/permission-rule.js';
import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import type { Interaction } from '../authorize/interaction.js';
import type { SessionWriter } from '../session/session-types.js';
import type { TurnCheckpoints } from '../checkpoint/turn-history.js';
import type { AgentTool, ShellSettings, TodoItem } from '../tools/tool-types.js';
import type { AgentState } from './agent-state.js';

export { DEFAULT_MAX_MODEL_CALLS } from '../defaults.js';
/** Output tokens per call: room for a long edit, within every supported model's limit. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

/** compactIfNeeded (src/agent/compact), which the session passes in; a loop test may pass its own. */
export type Compactor = (input: CompactionInput) => Promise<CompactionResult | undefined>;

export interface AgentLoopOptions {
  client: ModelClient;
  /** Builds the system prompt around the current todo list. */
  system(todos: readonly TodoItem[]): string;
  /** The new user message (redacted here before it is sent or saved). */
  prompt: string;
  /** The session so far; updated in place. */
  state: AgentState;
  /** Every tool the loop will run when asked: the policy, not the offer, decides. */
  tools: readonly AgentTool[];
  /** What the model is shown; `tools` when absent. */
  offeredTools?: readonly AgentTool[];
  workspaceRoot: string;
  mode: SafetyMode;
  rules: ParsedPermissionRules;
  /** Present exactly when someone can answer (chat): approvals and the `ask` tool. Without it an ask is refused. */
  interaction?: Interaction;
  /** The session's redactor. */
  redact(text: string): string;
  shell: ShellSettings;
  checkpoints?: TurnCheckpoints;
  session?: SessionWriter;
  /** Model calls before the loop asks for a summary and stops (`--max-turns`, default 100). */
  maxModelCalls?: number;
  /** This run's cost in USD at which the loop asks for a summary and stops. */
  maxCostUsd?: number | null;
  compaction?: { contextWindow: number; compact: Compactor };
  /** The user's hooks (from the user config only). */
  hooks?: HookSettings;
  signal?: AbortSignal;
  /** The clock tool durations are measured with (Date.now). */
  now?: () => number;
}
