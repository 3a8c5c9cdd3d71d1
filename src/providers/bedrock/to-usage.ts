import type { TokenUsage } from '@aws-sdk/client-bedrock-runtime';
import type { Usage } from '../types.js';

/** Token counts; Bedrock reports cached tokens separately from `inputTokens`, as Anthropic does. */
export function toUsage(usage: TokenUsage | undefined): Usage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cacheReadTokens: usage?.cacheReadInputTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteInputTokens ?? 0,
  };
}
