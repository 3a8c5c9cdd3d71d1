import type { DocumentInput, Message } from '../../providers/types.js';

/** Opens the summary inside the first user message; also how a later compaction finds an earlier summary. */
export const SUMMARY_HEADING = '[Summary of the earlier conversation, compacted to save context]';

/** Opens a kept user message that had to be merged after the summary. */
export const NEXT_MESSAGE_HEADING = '[The conversation continues]';

export type UserMessage = Extract<Message, { role: 'user' }>;

/** A first user message split into the user's own words and the summary an earlier compaction added to it. */
export function splitEarlierSummary(message: UserMessage): {
  original: UserMessage;
  earlierSummary: string | undefined;
} {
  const at = message.text.indexOf(`\n\n${SUMMARY_HEADING}\n`);
  const atStart = message.text.startsWith(`${SUMMARY_HEADING}\n`) ? 0 : -1;
  const cut = at === -1 ? atStart : at;
  if (cut === -1) return { original: message, earlierSummary: undefined };
  const earlierSummary = message.text.slice(cut).trim();
  return { original: { ...message, text: message.text.slice(0, cut) }, earlierSummary };
}

/**
 * The compacted transcript: one user message holding the first user message, then the summary (and the
 * first kept message, when that is a user message too, so two user messages never follow each other),
 * then the recent exchanges as they were. `recent` must start at an exchange start.
 */
export function assembleCompacted(
  first: UserMessage | undefined,
  summary: string,
  recent: readonly Message[],
): Message[] {
  const texts = first && first.text !== '' ? [first.text] : [];
  texts.push(`${SUMMARY_HEADING}\n${summary.trim()}`);
  const documents: DocumentInput[] = [...(first?.documents ?? [])];
  let rest = recent;
  const next = recent[0];
  if (next?.role === 'user') {
    texts.push(`${NEXT_MESSAGE_HEADING}\n${next.text}`);
    documents.push(...(next.documents ?? []));
    rest = recent.slice(1);
  }
  const opening: UserMessage = { role: 'user', text: texts.join('\n\n') };
  if (documents.length > 0) opening.documents = documents;
  return [opening, ...rest];
}
