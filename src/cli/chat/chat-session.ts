import type { AgentEvent } from '../../agent/events.js';
import { compactIfNeeded } from '../../agent/compact/compact-if-needed.js';
import { contextWindowFor } from '../../agent/compact/context-window.js';
import { estimateRequestTokens } from '../../agent/compact/estimate-tokens.js';
import {
  createAgentState,
  runAgentLoop,
  type AgentState,
} from '../../agent/loop/run-agent-loop.js';
import { buildSystemPrompt } from '../../agent/prompt/build-system-prompt.js';
import type { InstructionFile } from '../../agent/prompt/load-instructions.js';
import {
  createSession,
  loadSession,
  openSession,
  type LoadedSession,
} from '../../agent/session/session-store.js';
import type { SessionWriter } from '../../agent/session/session-types.js';
import { allTools, offeredTools } from '../../agent/tools/all-tools.js';
import type { AgentTool } from '../../agent/tools/tool-types.js';
import type { AgentSettings, PermissionRules } from '../../config/config-schema.js';
import type { HookSettings } from '../../config/hooks-schema.js';
import { priceFor } from '../../providers/pricing/price-for.js';
import { addToTotals } from '../../providers/pricing/usage-totals.js';
import type { ModelClient, ModelRef, ToolDefinition } from '../../providers/types.js';
import {
  parsePermissionRules,
  type ParsedPermissionRules,
} from '../../safety/policy/permission-rule.js';
import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import type { Colors } from '../terminal.js';
import { createAskUser, createChatApprover, type PromptChannel } from './chat-approver.js';
import type { LineEditor } from './line-editor/create-line-editor.js';
import { ChatDisplay } from './render/chat-display.js';
import { TurnHistory, type UndoPlan } from './turn-history.js';

export type DoneEvent = Extract<AgentEvent, { type: 'done' }>;

/** Where chat writes: the answer on stdout, everything else on stderr. */
export interface ChatOutput {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WritableStream;
  /** For stderr: previews, progress, the status line. */
  colors: Colors;
  /** Colours for the answer on stdout; Markdown is rendered when they are on. */
  answerColors: Colors;
  isMarkdown: boolean;
}

export interface ChatSessionOptions {
  workspaceRoot: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  client: ModelClient;
  /** For /model: a client for another model, with the same retry settings. */
  createClient(ref: ModelRef): Promise<ModelClient>;
  mode: SafetyMode;
  permissions: PermissionRules;
  agent: AgentSettings;
  instructions: readonly InstructionFile[];
  redact(text: string): string;
  editor: LineEditor;
  output: ChatOutput;
  oyVersion: string;
  /** A session to continue (--continue, --resume). */
  loaded?: LoadedSession;
  /** The user's hooks (user config only). */
  hooks?: HookSettings;
  /** Tools of other sources (MCP servers), offered after the built-in ones. */
  extraTools?: readonly AgentTool[];
  today?: string;
}

/**
 * One `oy chat`: the model client, the mode, the conversation and its session file, the checkpoints
 * for /undo. Each user message runs one turn of the agent loop; slash commands change the rest.
 */
export class ChatSession {
  client: ModelClient;
  mode: SafetyMode;
  state: AgentState;
  session: SessionWriter | undefined;
  /** Model calls made by this chat (for /cost). */
  modelCalls = 0;
  /** A turn or a compaction is running: Ctrl-C stops it rather than the chat. */
  isBusy = false;
  readonly rules: ParsedPermissionRules;
  readonly options: ChatSessionOptions;
  /** The screen side: each turn's view, the last command's output (/output). */
  readonly display: ChatDisplay;
  private history: TurnHistory;
  private readonly today: string;

  constructor(options: ChatSessionOptions) {
    this.options = options;
    this.display = new ChatDisplay(options.output);
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
    if (this.options.loaded) this.session = await openSession(this.options.loaded);
  }

  get modelId(): string {
    return this.client.ref.id;
  }

  get output(): ChatOutput {
    return this.options.output;
  }

  systemPrompt(mode: SafetyMode = this.mode): string {
    return buildSystemPrompt({
      mode,
      workspaceRoot: this.options.workspaceRoot,
      today: this.today,
      isInteractive: true,
      instructions: this.options.instructions,
      todos: this.state.todos,
    });
  }

  offeredDefinitions(mode: SafetyMode = this.mode): ToolDefinition[] {
    return offeredTools(mode, true, this.options.extraTools).map(
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

  /** One user turn: streams the answer, asks before what the mode says to ask about; Ctrl-C aborts it. */
  async runTurn(prompt: string, mode: SafetyMode = this.mode): Promise<DoneEvent> {
    const { output, editor } = this.options;
    const session = await this.ensureSession();
    const controller = new AbortController();
    const view = this.display.startTurn(controller.signal);
    const channel: PromptChannel = {
      editor,
      stderr: output.stderr,
      colors: output.colors,
      pause: () => view.pauseForPrompt(),
    };
    const stopListening = editor.onInterrupt(() => controller.abort());
    this.isBusy = true;
    const firstIndex = this.state.messages.length;
    const state = this.state;
    let done: DoneEvent | undefined;
    try {
      for await (const event of runAgentLoop({
        client: this.client,
        system: () => this.systemPrompt(mode),
        prompt,
        state,
        tools: allTools(this.options.extraTools),
        offeredTools: offeredTools(mode, true, this.options.extraTools),
        workspaceRoot: this.options.workspaceRoot,
        mode,
        rules: this.rules,
        isInteractive: true,
        approver: createChatApprover(channel),
        askUser: createAskUser(channel),
        ...(this.options.hooks ? { hooks: this.options.hooks } : {}),
        redact: this.options.redact,
        shell: {
          sandbox: this.options.agent.sandbox,
          allowedEnvNames: this.options.agent.allowEnv,
          baseEnv: this.options.env,
          allowNetwork: this.options.agent.network,
        },
        checkpoints: this.history.recorder,
        session,
        compaction: { contextWindow: this.contextWindow(), compact: compactIfNeeded },
        signal: controller.signal,
      })) {
        view.render(event);
        if (event.type === 'done') done = event;
      }
    } finally {
      this.isBusy = false;
      stopListening();
      view.end();
    }
    if (done === undefined) throw new Error('the agent loop ended without a done event');
    this.modelCalls += done.turns;
    this.history.record(state.turns, findTurnStart(state, firstIndex, this.options.redact(prompt)));
    return done;
  }

  /** /undo: the last turn's files back, its messages out of the conversation and the session. */
  async undo(): Promise<UndoPlan> {
    const plan = await this.history.undoLast(this.state.messages);
    if (plan.kind !== 'undo') return plan;
    this.state.messages = this.state.messages.slice(0, plan.keepMessages);
    // state.turns stays: a resumed session numbers its next turn after every finished one, undone ones included.
    await this.session?.recordUndo(plan.turn);
    return plan;
  }

  /** /diff: the files this chat changed, as they were before it changed them (null: absent). */
  async originals(): Promise<Map<string, Buffer | null>> {
    return this.history.originals();
  }

  /** /clear: a fresh conversation in a new session (created at the next turn). */
  async clear(): Promise<void> {
    await this.history.dispose();
    this.history = this.newHistory();
    this.state = createAgentState();
    this.session = undefined;
    this.modelCalls = 0;
  }

  /** /load: continue a saved session of this workspace instead. */
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

  /** /save: makes sure the session file exists, and names it when a name is given. */
  async save(name: string | undefined): Promise<SessionWriter> {
    const session = await this.ensureSession();
    if (name !== undefined) await session.saveName(name);
    return session;
  }

  /** /compact: compacts now, whatever the size; undefined when there is nothing to compact. */
  async compact(): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    const controller = new AbortController();
    const stopListening = this.options.editor.onInterrupt(() => controller.abort());
    this.isBusy = true;
    try {
      const result = await compactIfNeeded({
        client: this.client,
        system: this.systemPrompt(),
        messages: this.state.messages,
        tools: this.offeredDefinitions(),
        contextWindow: this.contextWindow(),
        redact: this.options.redact,
        signal: controller.signal,
        force: true,
      });
      if (result === undefined) return undefined;
      this.state.messages = result.messages;
      const totals = addToTotals(
        { ...this.state.usage, costUsd: this.state.costUsd },
        result.usage,
        priceFor(this.client.ref),
      );
      const { costUsd, ...usage } = totals;
      this.state.usage = usage;
      this.state.costUsd = costUsd;
      await this.session?.saveCompaction(result.messages, result.tokensBefore, result.tokensAfter);
      return { tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter };
    } finally {
      this.isBusy = false;
      stopListening();
    }
  }

  /** Deletes the checkpoints' spilled copies; call once, when the chat ends. */
  async dispose(): Promise<void> {
    await this.history.dispose();
  }

  private async ensureSession(): Promise<SessionWriter> {
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
