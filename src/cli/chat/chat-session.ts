import {
  AgentSession,
  type AgentSessionOptions,
  type DoneEvent,
} from '../../agent/agent-session.js';
import type { Interaction } from '../../agent/authorize/interaction.js';
import type { UndoPlan } from '../../agent/checkpoint/turn-history.js';
import type { AgentState } from '../../agent/loop/agent-state.js';
import type { LoadedSession } from '../../agent/session/session-store.js';
import type { SessionWriter } from '../../agent/session/session-types.js';
import type { ModelClient, ModelRef } from '../../providers/types.js';
import type { ParsedPermissionRules } from '../../safety/policy/permission-rule.js';
import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import type { Colors } from '../terminal.js';
import { createAskUser, createChatApprover, type PromptChannel } from './chat-approver.js';
import type { LineEditor } from './line-editor/create-line-editor.js';
import { ChatDisplay } from './render/chat-display.js';

export type { DoneEvent } from '../../agent/agent-session.js';

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

export interface ChatSessionOptions extends AgentSessionOptions {
  /** For /model: a client for another model, with the same retry settings. */
  createClient(ref: ModelRef): Promise<ModelClient>;
  editor: LineEditor;
  output: ChatOutput;
}

/**
 * One `oy chat`: the terminal around an AgentSession. Each user message runs one turn, rendered as it
 * streams, with the editor as the person who answers approvals and questions; slash commands reach the
 * session through the accessors below.
 */
export class ChatSession {
  readonly agent: AgentSession;
  readonly options: ChatSessionOptions;
  /** A turn or a compaction is running: Ctrl-C stops it rather than the chat. */
  isBusy = false;
  /** The screen side: each turn's view, the last command's output (/output). */
  readonly display: ChatDisplay;

  constructor(options: ChatSessionOptions) {
    this.options = options;
    this.display = new ChatDisplay(options.output);
    this.agent = new AgentSession(options);
  }

  start(): Promise<void> {
    return this.agent.start();
  }

  get output(): ChatOutput {
    return this.options.output;
  }

  get modelId(): string {
    return this.agent.modelId;
  }

  get client(): ModelClient {
    return this.agent.client;
  }

  set client(client: ModelClient) {
    this.agent.client = client;
  }

  get mode(): SafetyMode {
    return this.agent.mode;
  }

  set mode(mode: SafetyMode) {
    this.agent.mode = mode;
  }

  get state(): AgentState {
    return this.agent.state;
  }

  get session(): SessionWriter | undefined {
    return this.agent.session;
  }

  get rules(): ParsedPermissionRules {
    return this.agent.rules;
  }

  get modelCalls(): number {
    return this.agent.modelCalls;
  }

  contextTokens(): number {
    return this.agent.contextTokens();
  }

  contextWindow(): number {
    return this.agent.contextWindow();
  }

  /** One user turn: streams the answer, asks before what the mode says to ask about; Ctrl-C aborts it. */
  async runTurn(prompt: string, mode: SafetyMode = this.mode): Promise<DoneEvent> {
    const { editor } = this.options;
    const controller = new AbortController();
    const view = this.display.startTurn(controller.signal);
    const stopListening = editor.onInterrupt(() => controller.abort());
    const stopKeys = editor.onKey((key) => {
      if (key === 'toggle-thinking') this.display.showThinking(!this.display.showsThinking);
    });
    this.isBusy = true;
    let done: DoneEvent | undefined;
    try {
      for await (const event of this.agent.runTurn(prompt, {
        mode,
        signal: controller.signal,
        interaction: this.interaction(() => view.pauseForPrompt()),
      })) {
        view.render(event);
        if (event.type === 'done') done = event;
      }
    } finally {
      this.isBusy = false;
      stopListening();
      stopKeys();
      view.end();
    }
    if (done === undefined) throw new Error('the agent loop ended without a done event');
    return done;
  }

  /**
   * The person at the keyboard, as the agent sees them: approvals and the ask tool's questions, read
   * by the editor. `pause` runs before each question (the turn's view stops its spinner there).
   */
  interaction(pause: PromptChannel['pause'] = () => () => undefined): Interaction {
    const channel: PromptChannel = {
      editor: this.options.editor,
      stderr: this.output.stderr,
      colors: this.output.colors,
      pause,
    };
    return { approve: createChatApprover(channel), ask: createAskUser(channel) };
  }

  /** /undo: the last turn's files back, its messages out of the conversation and the session. */
  undo(): Promise<UndoPlan> {
    return this.agent.undo();
  }

  /** /diff: the files this chat changed, as they were before it changed them (null: absent). */
  originals(): Promise<Map<string, Buffer | null>> {
    return this.agent.originals();
  }

  /** /clear: a fresh conversation in a new session (created at the next turn). */
  clear(): Promise<void> {
    return this.agent.clear();
  }

  /** /load: continue a saved session of this workspace instead. */
  load(selector: string): Promise<LoadedSession> {
    return this.agent.load(selector);
  }

  /** /save: makes sure the session file exists, and names it when a name is given. */
  save(name: string | undefined): Promise<SessionWriter> {
    return this.agent.save(name);
  }

  /** /compact: compacts now, whatever the size; Ctrl-C stops it. */
  async compact(): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    const controller = new AbortController();
    const stopListening = this.options.editor.onInterrupt(() => controller.abort());
    this.isBusy = true;
    try {
      return await this.agent.compact(controller.signal);
    } finally {
      this.isBusy = false;
      stopListening();
    }
  }

  /** Deletes the checkpoints' spilled copies; call once, when the chat ends. */
  dispose(): Promise<void> {
    return this.agent.dispose();
  }
}
