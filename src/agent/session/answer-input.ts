import { createHash } from 'node:crypto';
import type { Message } from '../../providers/types.js';

/** One thing the model was given since its previous answer: the prompt, a tool result, feedback. */
export interface AnswerInputPiece {
  /** How a person reads it in a replay's divergence message. */
  label: string;
  digest: string;
}

/** 128 bits of sha256: enough to tell two texts apart, short enough to store per piece. */
const DIGEST_HEX_CHARS = 32;
/**
 * Timing in a tool result (bash's `duration_ms`) differs on every run and is not what the next answer
 * depends on. Compact JSON writes the key as `"duration_ms":<n>`; the same text inside a string is escaped.
 */
const TIMING_FIELD = /"duration_ms":\d+/gu;

/**
 * What a request gives the model after its last assistant message, piece by piece, with a digest of
 * each: a recorded answer is replayed only where these match what the recorded call was given.
 */
export function describeAnswerInput(messages: readonly Message[]): AnswerInputPiece[] {
  const lastAnswer = messages.findLastIndex((message) => message.role === 'assistant');
  const previous = messages[lastAnswer];
  const toolNames = new Map(
    previous?.role === 'assistant' ? previous.toolCalls.map((call) => [call.id, call.name]) : [],
  );
  return messages.slice(lastAnswer + 1).flatMap((message): AnswerInputPiece[] => {
    if (message.role === 'user')
      return [{ label: 'the user message', digest: digestOf([message.text, message.documents]) }];
    if (message.role === 'tool')
      return message.results.map((result) => ({
        label: `the result of ${toolNames.get(result.toolCallId) ?? 'a tool'} call ${result.toolCallId}`,
        digest: digestOf([
          result.toolCallId,
          result.isError === true,
          result.content.replace(TIMING_FIELD, '"duration_ms":0'),
        ]),
      }));
    return [];
  });
}

function digestOf(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value) ?? '')
    .digest('hex')
    .slice(0, DIGEST_HEX_CHARS);
}
