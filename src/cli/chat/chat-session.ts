import type { AgentSession, DoneEvent, Interaction } from '../../agent/index.js';
import type { ModelClient, ModelRef } from '../../providers/types.js';
import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import type { Colors } from '../terminal.js';
import { createAskUser, createChatApprover, type PromptChannel } from './chat-approver.js';
import type { LineEditor } from './line-editor/create-line-editor.js';
import { ChatDisplay } from './render/chat-display.js';

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
  /** The session, opened by openAgentSession; the chat drives it and reads its state directly. */
  agent: AgentSession;
  /** For /model: a client for another model, with the same retry settings. */
  createClient(ref: ModelRef): Promise<ModelClient>;
  editor: LineEditor;
  output: ChatOutput;
}

/**
 * One `oy chat`: the terminal around an AgentSession. Each user message runs one turn, rendered as it
 * streams, with the editor as the person who answers approvals and questions; slash commands read
 * and change `agent` itself.
 */
export class ChatSession {
  readonly agent: AgentSession;
  readonly options: ChatSessionOptions;
  readonly output: ChatOutput;
  /** A turn or a compaction is running: Ctrl-C stops it rather than the chat. */
  isBusy = false;
  /** The screen side: each turn's view, the last command's output (/output). */
  readonly display: ChatDisplay;

  constructor(options: ChatSessionOptions) {
    this.options = options;
    this.agent = options.agent;
    this.output = options.output;
    this.display = new ChatDisplay(options.output);
  }

  /** One user turn: streams the answer, asks before what the mode says to ask about; Ctrl-C aborts it. */
  async runTurn(prompt: string, mode: SafetyMode = this.agent.mode): Promise<DoneEvent> {
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
}
