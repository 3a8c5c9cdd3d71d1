import { readSessionFile, type ApprovalRecord, type LoadedSession } from '../../agent/index.js';
import type { ChatSession } from './chat-session.js';
import { renderRecap } from './render/render-recap.js';

/** `oy chat -c`, `--resume` and /load: the last exchanges of the session, then the chat goes on. */
export async function showRecap(
  chat: ChatSession,
  loaded: LoadedSession,
  prompts: { prompt: string; continuationPrompt: string },
): Promise<void> {
  renderRecap({
    sessionId: loaded.summary.id,
    messages: chat.agent.state.messages,
    approvals: await readApprovals(loaded.summary.file),
    output: chat.output,
    ...prompts,
    startView: () => chat.display.startRecap(),
  });
}

/** How each call was settled, by call id; a file that cannot be read gives none (the recap still shows the calls). */
async function readApprovals(file: string): Promise<Map<string, ApprovalRecord>> {
  const content = await readSessionFile(file);
  const approvals = new Map<string, ApprovalRecord>();
  for (const record of content?.records ?? []) {
    if (record.type !== 'approval') continue;
    const { type: _type, at: _at, turn: _turn, ...approval } = record;
    approvals.set(record.toolCallId, approval);
  }
  return approvals;
}
