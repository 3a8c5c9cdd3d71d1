import { EMPTY_USAGE, type Message, type Usage } from '../../providers/types.js';
import { SessionGrants } from '../authorize/session-grants.js';
import type { TodoItem } from '../tools/tool-types.js';

/**
 * What lives across the turns of one session: the conversation, the todo list, the "always" grants,
 * and the running totals. The loop updates it in place, so chat can show /status and /permissions.
 */
export interface AgentState {
  /** The transcript sent to the model (redacted); compaction replaces it. */
  messages: Message[];
  todos: TodoItem[];
  grants: SessionGrants;
  /** Real paths of secret-bearing files the user approved reading: the sandbox no longer covers them. */
  revealedFiles: Set<string>;
  /** User turns finished so far (resumed ones included); the next turn is `turns + 1`. */
  turns: number;
  usage: Usage;
  /** null once any call's price was unknown. */
  costUsd: number | null;
}

export interface AgentStateSeed {
  messages?: readonly Message[];
  todos?: readonly TodoItem[];
  turns?: number;
  usage?: Usage;
  costUsd?: number | null;
}

/** A fresh state, or one seeded from a resumed session. */
export function createAgentState(seed: AgentStateSeed = {}): AgentState {
  return {
    messages: [...(seed.messages ?? [])],
    todos: [...(seed.todos ?? [])],
    grants: new SessionGrants(),
    revealedFiles: new Set(),
    turns: seed.turns ?? 0,
    usage: seed.usage ?? { ...EMPTY_USAGE },
    costUsd: seed.costUsd === undefined ? 0 : seed.costUsd,
  };
}
