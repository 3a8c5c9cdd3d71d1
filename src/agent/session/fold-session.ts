import { EMPTY_USAGE, type Message, type Usage } from '../../providers/types.js';
import { addUsage } from '../../providers/pricing/usage-totals.js';
import type { TodoItem } from '../tools/tool-types.js';
import type { SessionFileContent } from './read-session-file.js';
import { repairTranscript } from './repair-transcript.js';

interface TurnMessage {
  turn: number;
  message: Message;
}

interface History {
  messages: TurnMessage[];
  todos: TodoItem[];
}

/** A session file folded into the state a resumed session starts from. */
export interface FoldedSession {
  name: string | undefined;
  /** The number of the last finished turn; a resumed session goes on with the next one. */
  turns: number;
  /** Summed over every finished turn, undone ones included: that money was spent. */
  usage: Usage;
  /** Null once any finished turn's cost was unknown (as in usage-totals). */
  costUsd: number | null;
  updatedAt: string;
  /** The first prompt ever written, even if compaction or undo has since removed it. */
  firstPrompt: string;
  /** Repaired: a valid transcript for any provider. */
  messages: Message[];
  todos: TodoItem[];
}

/**
 * Folds the records in order. Messages, todos and compactions are pending until a `turn` line
 * commits them, so a crash loses at most the unfinished turn; a `resumed` line abandons what is pending.
 */
export function foldSession({ header, records }: SessionFileContent): FoldedSession {
  let committed: History = { messages: [], todos: [] };
  let working: History = { messages: [], todos: [] };
  const state = {
    name: header.name,
    turns: 0,
    usage: EMPTY_USAGE,
    costUsd: 0 as number | null,
    updatedAt: header.createdAt,
    firstPrompt: '',
  };
  for (const record of records) {
    if (record.type === 'session') continue;
    state.updatedAt = record.at;
    switch (record.type) {
      case 'message':
        working.messages.push({ turn: record.turn, message: record.message });
        if (state.firstPrompt === '' && record.message.role === 'user')
          state.firstPrompt = record.message.text;
        break;
      case 'turn':
        committed = copyHistory(working);
        state.turns = Math.max(state.turns, record.turn);
        state.usage = addUsage(state.usage, record.usage);
        state.costUsd =
          state.costUsd === null || record.costUsd === null ? null : state.costUsd + record.costUsd;
        break;
      case 'todos':
        working.todos = record.todos;
        break;
      case 'compacted':
        working.messages = inheritTurns(record.messages, working.messages);
        break;
      case 'undo':
        committed = dropTurnsFrom(committed, record.turn);
        working = dropTurnsFrom(working, record.turn);
        break;
      case 'name':
        state.name = record.name;
        break;
      case 'resumed':
        working = copyHistory(committed);
        break;
    }
  }
  return {
    ...state,
    messages: repairTranscript(committed.messages.map((entry) => entry.message)),
    todos: committed.todos,
  };
}

function copyHistory(history: History): History {
  return { messages: [...history.messages], todos: [...history.todos] };
}

function dropTurnsFrom(history: History, turn: number): History {
  return { ...history, messages: history.messages.filter((entry) => entry.turn < turn) };
}

/**
 * A compacted history keeps recent turns verbatim: those messages keep their turn (so `/undo` still
 * finds them); a summary or shortened message takes the turn of the message before it.
 */
function inheritTurns(
  messages: readonly Message[],
  previous: readonly TurnMessage[],
): TurnMessage[] {
  const turnOf = new Map(previous.map((entry) => [JSON.stringify(entry.message), entry.turn]));
  let turn = 0;
  return messages.map((message) => {
    turn = Math.max(turn, turnOf.get(JSON.stringify(message)) ?? turn);
    return { turn, message };
  });
}
