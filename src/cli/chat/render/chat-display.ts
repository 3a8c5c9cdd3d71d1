import type { ChatOutput } from '../chat-session.js';
import { createTurnView, type TurnView } from './turn-view.js';

/** A command's whole output, as the model got it (redacted), kept for /output. */
export interface KeptCommandOutput {
  command: string;
  text: string;
}

/** What the chat shows across turns: each turn's view, and the last command's output for /output. */
export class ChatDisplay {
  lastCommandOutput: KeptCommandOutput | undefined;

  constructor(private readonly output: ChatOutput) {}

  /** The view of one turn; `signal` is the turn's Ctrl-C. */
  startTurn(signal: AbortSignal): TurnView {
    return createTurnView({
      output: this.output,
      signal,
      keepCommandOutput: (command, text) => {
        this.lastCommandOutput = { command, text };
      },
    });
  }
}
