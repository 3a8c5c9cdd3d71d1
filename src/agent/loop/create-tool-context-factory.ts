import { createReadCheck } from '../../safety/policy/read-access.js';
import { createAuthorizer } from '../authorize/create-authorizer.js';
import type { AgentEvent } from '../events.js';
import type { CheckpointRecorder, ToolContext } from '../tools/tool-types.js';
import type { AgentLoopOptions } from './loop-options.js';

const NO_CHECKPOINTS: CheckpointRecorder = {
  beforeFileChange: async () => undefined,
  beforeCommand: async () => undefined,
};

/**
 * Per-call tool contexts for one loop run (turn `turn`): the call's id, an authorizer whose approval
 * events go to `emit` and, before the call goes on, to the session file; and the session's todo list
 * (each change saved; the saves are awaited by the loop).
 */
export function createToolContextFactory(
  options: AgentLoopOptions,
  turn: number,
  signal: AbortSignal,
  now: () => number,
  todoSaves: Promise<void>[],
): (toolCallId: string, emit: (event: AgentEvent) => void) => ToolContext {
  const { state, session, interaction } = options;
  const canRead = createReadCheck(options.rules, options.workspaceRoot);
  return (toolCallId, emit) => ({
    workspaceRoot: options.workspaceRoot,
    signal,
    toolCallId,
    redact: options.redact,
    authorize: createAuthorizer({
      mode: options.mode,
      rules: options.rules,
      grants: state.grants,
      workspaceRoot: options.workspaceRoot,
      ...(interaction ? { interaction } : {}),
      redact: options.redact,
      onApproval: async ({ type: _type, ...approval }) => {
        emit({ type: 'approval', ...approval });
        await session?.recordApproval(turn, approval);
      },
    }),
    canRead,
    checkpoints: options.checkpoints ?? NO_CHECKPOINTS,
    todos: {
      get: () => state.todos,
      set: (items) => {
        state.todos = [...items];
        if (session) todoSaves.push(session.saveTodos(items));
      },
    },
    shell: options.shell,
    ...(interaction ? { interaction } : {}),
    now,
  });
}
