import type { AgentSettings, PermissionRules } from '../config/config-schema.js';
import type { ModelClient, ToolDefinition } from '../providers/types.js';
import {
  parsePermissionRules,
  type ParsedPermissionRules,
} from '../safety/policy/permission-rule.js';
import type { SafetyMode } from '../safety/policy/safety-mode.js';
import type { Interaction } from './authorize/interaction.js';
import { TurnHistory, type UndoPlan } from './checkpoint/turn-history.js';
import { compactIfNeeded } from './compact/compact-if-needed.js';
import { contextWindowFor } from './compact/context-window.js';
import { estimateRequestTokens } from './compact/estimate-tokens.js';
import type { AgentEvent } from './events.js';
import { createAgentState, type AgentState } from './loop/agent-state.js';
import type { AgentLoopOptions } from './loop/loop-options.js';
import { runAgentLoop } from './loop/run-agent-loop.js';
import { UsageMeter } from './loop/usage-meter.js';
import { buildSystemPrompt } from './prompt/build-system-prompt.js';
import type { InstructionFile } from './prompt/load-instructions.js';
import {
  createSession,
  loadSession,
  openSession,
  type LoadedSession,
} from './session/session-store.js';
import type { SessionWriter } from './session/session-types.js';
import { allTools, offeredTools } from './tools/all-tools.js';
import type { AgentTool } from './tools/tool-types.js';
import type { HookSettings } from '../config/hooks-schema.js';

export type DoneEvent = Extract<AgentEvent, { type: 'done' }>;

export interface AgentSessionOptions {
  workspaceRoot: string;
  stateDir: string;
  /** The caller's environment: the base the scrubbed command environment is built from. */
  env: Readonly<Record<string, string | undefined>>;
  client: ModelClient;
  mode: SafetyMode;
  permissions: PermissionRules;
  agent: AgentSettings;
  instructions: readonly InstructionFile[];
  /** The session's one redactor: prompts, tool results, instructions and summaries all pass it. */
  redact(text: string): string;
  oyVersion: string;
  /** A session to continue (--continue, --resume). */
  loaded?: LoadedSession;
  /** false: no session file is written (`oy run --no-session`). */
  isSaved?: boolean;
  /** `YYYY-MM-DD` for the system prompt; today when absent. */
  today?: string;
  /** The user's hooks (user config only). */
  hooks?: HookSettings;
  /** Tools of other sources (MCP servers), offered after the built-in ones. */
  extraTools?: readonly AgentTool[];
}

export interface TurnOptions {
  signal?: AbortSignal;
  /** Present exactly when someone can answer: approvals are asked and the `ask` tool is offered. */
  interaction?: Interaction;
  /** This turn only (chat's /ask runs one turn in plan mode). */
  mode?: SafetyMode;
  /** `--max-turns`: model calls before the loop asks for a summary and stops. */
  maxModelCalls?: number;
  maxCostUsd?: number | null;
}

/**
 * One agent session, whoever drives it (`oy run` once, `oy chat` turn after turn): the state, the
 * session file, the checkpoints behind undo, compaction, the usage totals, the mode and the client.
 * `runTurn` yields the loop's typed events; the caller only renders them.
 */
export class AgentSession {
  client: ModelClient;
  mode: SafetyMode;
  state: AgentState;
  session: SessionWriter | undefined;
  /** Model calls made in this session since it started, cleared or loaded (for /cost). */
  modelCalls = 0;
  readonly rules: ParsedPermissionRules;
  readonly options: AgentSessionOptions;
  private history: TurnHistory;
  private readonly today: string;

  constructor(options: AgentSessionOptions) {
    this.options = options;
    this.client = options.client;
    this.mode = options.mode;
    this.rules = parsePermissionRules(options.permissions);
    this.state = createAgentState(options.loaded ?? {});
    this.session = undefined;
    this.history = this.newHistory();
    this.today = options.today ?? new Date().toISOString().slice(0, 10);
  }

  /** Opens the session being continued; a new one is created at the first turn, so an empty chat leaves no file. */
  async start(): Promise<void> {
    if (this.options.loaded && this.isSaved) this.session = await openSession(this.options.loaded);
  }

  get modelId(): string {
    return this.client.ref.id;
  }

  private get isSaved(): boolean {
    return this.options.isSaved ?? true;
  }

  systemPrompt(mode: SafetyMode = this.mode, isInteractive = true): string {
    return buildSystemPrompt({
      mode,
      workspaceRoot: this.options.workspaceRoot,
      today: this.today,
      isInteractive,
      instructions: this.options.instructions,
      todos: this.state.todos,
      hasMcpTools: (this.options.extraTools?.length ?? 0) > 0,
    });
  }

  offeredDefinitions(mode: SafetyMode = this.mode, isInteractive = true): ToolDefinition[] {
    return offeredTools(mode, isInteractive, this.options.extraTools).map(
      ({ name, description, inputSchema }) => ({
        name,
        description,
        inputSchema,
      }),
    );
  }

  /** The estimated prompt size of the next request. */
  contextTokens(): number {
    return estimateRequestTokens({
      system: this.systemPrompt(),
      messages: this.state.messages,
      tools: this.offeredDefinitions(),
    });
  }

  contextWindow(): number {
    return contextWindowFor(this.client.ref, this.options.agent.contextWindow);
  }

  /** One user turn: the loop's events as they come; the last one is `done`. */
  async *runTurn(prompt: string, turn: TurnOptions = {}): AsyncGenerator<AgentEvent, void> {
    const mode = turn.mode ?? this.mode;
    const isInteractive = turn.interaction !== undefined;
    const session = await this.ensureSession();
    const state = this.state;
    const firstIndex = state.messages.length;
    const options: AgentLoopOptions = {
      client: this.client,
      system: () => this.systemPrompt(mode, isInteractive),
      prompt,
      state,
      tools: allTools(this.options.extraTools),
      offeredTools: offeredTools(mode, isInteractive, this.options.extraTools),
      workspaceRoot: this.options.workspaceRoot,
      mode,
      rules: this.rules,
      ...(turn.interaction ? { interaction: turn.interaction } : {}),
      ...(this.options.hooks ? { hooks: this.options.hooks } : {}),
      redact: this.options.redact,
      shell: {
        sandbox: this.options.agent.sandbox,
        allowedEnvNames: this.options.agent.allowEnv,
        baseEnv: this.options.env,
        allowNetwork: this.options.agent.network,
        homePaths: this.options.agent.homePaths ?? [],
        revealedFiles: state.revealedFiles,
        // Plan mode changes nothing: hooks it runs get the workspace read-only.
        workspaceAccess: mode === 'plan' ? 'read-only' : 'read-write',
      },
      checkpoints: this.history.recorder,
      ...(session ? { session } : {}),
      ...(turn.maxModelCalls === undefined ? {} : { maxModelCalls: turn.maxModelCalls }),
      ...(turn.maxCostUsd === undefined ? {} : { maxCostUsd: turn.maxCostUsd }),
      compaction: { contextWindow: this.contextWindow(), compact: compactIfNeeded },
      ...(turn.signal ? { signal: turn.signal } : {}),
    };
    for await (const event of runAgentLoop(options)) {
      if (event.type === 'done') {
        this.modelCalls += event.modelCalls;
        this.history.record(
          state.turns,
          findTurnStart(state, firstIndex, this.options.redact(prompt)),
        );
      }
      yield event;
    }
  }

  /** Undo: the last turn's files back, its messages out of the conversation and the session. */
  async undo(): Promise<UndoPlan> {
    const plan = await this.history.undoLast(this.state.messages);
    if (plan.kind !== 'undo') return plan;
    this.state.messages = this.state.messages.slice(0, plan.keepMessages);
    // state.turns stays: a resumed session numbers its next turn after every finished one, undone ones included.
    await this.session?.recordUndo(plan.turn);
    return plan;
  }

  /** The files this session changed, as they were before it changed them (null: absent). */
  originals(): Promise<Map<string, Buffer | null>> {
    return this.history.originals();
  }

  /** A fresh conversation in a new session (created at the next turn). */
  async clear(): Promise<void> {
    await this.history.dispose();
    this.history = this.newHistory();
    this.state = createAgentState();
    this.session = undefined;
    this.modelCalls = 0;
  }

  /** Continues a saved session of this workspace instead. */
  async load(selector: string): Promise<LoadedSession> {
    const loaded = await loadSession(this.options.stateDir, this.options.workspaceRoot, selector);
    const session = await openSession(loaded);
    await this.history.dispose();
    this.history = this.newHistory();
    this.state = createAgentState(loaded);
    this.session = session;
    this.modelCalls = 0;
    return loaded;
  }

  /** Makes sure the session file exists, and names it when a name is given. */
  async save(name: string | undefined): Promise<SessionWriter> {
    const session = await this.ensureSession(true);
    if (session === undefined) throw new Error('this session is not saved');
    if (name !== undefined) await session.saveName(name);
    return session;
  }

  /** Compacts now, whatever the size; undefined when there is nothing to compact. */
  async compact(
    signal?: AbortSignal,
  ): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    const result = await compactIfNeeded({
      client: this.client,
      system: this.systemPrompt(),
      messages: this.state.messages,
      tools: this.offeredDefinitions(),
      contextWindow: this.contextWindow(),
      redact: this.options.redact,
      ...(signal ? { signal } : {}),
      force: true,
    });
    if (result === undefined) return undefined;
    this.state.messages = result.messages;
    new UsageMeter(this.client.ref, this.state).add(result.usage);
    await this.session?.saveCompaction(result.messages, result.tokensBefore, result.tokensAfter);
    return { tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter };
  }

  /** Deletes the checkpoints' spilled copies; call once, when the session ends. */
  async dispose(): Promise<void> {
    await this.history.dispose();
  }

  private async ensureSession(isWanted = this.isSaved): Promise<SessionWriter | undefined> {
    if (!isWanted) return this.session;
    this.session ??= await createSession({
      stateDir: this.options.stateDir,
      workspaceRoot: this.options.workspaceRoot,
      model: this.modelId,
      oyVersion: this.options.oyVersion,
    });
    return this.session;
  }

  private newHistory(): TurnHistory {
    return new TurnHistory({ workspaceRoot: this.options.workspaceRoot, env: this.options.env });
  }
}

/** The user message a turn began with: where it was appended, or (after compaction moved it) found by its text. */
function findTurnStart(state: AgentState, index: number, text: string) {
  const atIndex = state.messages[index];
  if (atIndex?.role === 'user' && atIndex.text === text) return atIndex;
  return state.messages.findLast((message) => message.role === 'user' && message.text === text);
}
