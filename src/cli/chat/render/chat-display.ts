import type { ChatOutput } from '../chat-session.js';
import { createTurnView, type TurnView } from './turn-view.js';

/** A command's whole output, as the model got it (redacted), kept for /output. */
export interface KeptCommandOutput {
  command: string;
  text: string;
}

/** What the chat shows across turns: each turn's view, the last command's output for /output, whether thinking shows. */
export class ChatDisplay {
  lastCommandOutput: KeptCommandOutput | undefined;
  /** Ctrl-T and /thinking switch it; a turn that is streaming follows at once. */
  showsThinking = true;

  constructor(private readonly output: ChatOutput) {}

  /** Shows or hides the model's thinking from now on; returns the new setting. */
  showThinking(isShown: boolean): boolean {
    this.showsThinking = isShown;
    return isShown;
  }

  /** The view of one turn; `signal` is the turn's Ctrl-C. */
  startTurn(signal: AbortSignal): TurnView {
    return this.createView(signal, false);
  }

  /** The view of a past turn, shown again when a session is resumed (no spinner, no durations). */
  startRecap(): TurnView {
    return this.createView(new AbortController().signal, true);
  }

  private createView(signal: AbortSignal, isRecap: boolean): TurnView {
    return createTurnView({
      output: this.output,
      signal,
      isRecap,
      showsThinking: () => this.showsThinking,
      keepCommandOutput: (command, text) => {
        this.lastCommandOutput = { command, text };
      },
    });
  }
}
