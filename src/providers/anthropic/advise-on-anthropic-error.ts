import type { ProviderErrorKind } from '../provider-error.js';
import { describeWait } from '../retry/parse-retry-after.js';
import type { ModelRef } from '../types.js';

/** What the classifier knows about a failure. */
export interface AnthropicErrorFacts {
  type: string | undefined;
  status: number | undefined;
  ref: ModelRef;
  retryAfterMs: number | undefined;
}

/** What went wrong in a few words, and what the person can do about it. */
export function adviseOnAnthropicError(
  kind: ProviderErrorKind,
  { type, status, ref, retryAfterMs }: AnthropicErrorFacts,
): { summary: string; hint: string } {
  switch (kind) {
    case 'auth':
      return {
        summary: 'Anthropic rejected the API key',
        hint: 'check ANTHROPIC_API_KEY (oy doctor shows which credentials are set)',
      };
    case 'permission':
      return type === 'billing_error' || (type === undefined && status === 402)
        ? {
            summary: 'Anthropic refused the request for billing reasons',
            hint: "check the organisation's plan and credit balance in the Anthropic console",
          }
        : {
            summary: `the API key may not use ${ref.model}`,
            hint: "check the key's workspace and model access in the Anthropic console, or pick another model with oy model",
          };
    case 'model_not_found':
      return {
        summary: `Anthropic does not know the model ${ref.model}`,
        hint: 'check the model id (oy model lists known ids) and ANTHROPIC_BASE_URL',
      };
    case 'rate_limited': {
      const wait =
        retryAfterMs === undefined ? '' : `; it asks to wait ${describeWait(retryAfterMs)}`;
      return {
        summary: `Anthropic rate limit reached${wait}`,
        hint: "wait and retry, lower the concurrency, or raise the organisation's rate limits",
      };
    }
    case 'overloaded':
      return {
        summary: 'Anthropic is overloaded',
        hint: 'retry in a little while, or pick another model with oy model',
      };
    case 'context_too_long':
      return {
        summary: 'the request is too large for the model',
        hint: 'send less: smaller audit chunks, or a new chat session',
      };
    case 'timeout':
      return {
        summary: 'Anthropic timed out',
        hint: 'retry; if answers are long or the network slow, raise the request timeout',
      };
    case 'bad_request':
      return {
        summary: 'Anthropic rejected the request',
        hint: 'if the prompt is too long, send less; otherwise run with --verbose and report it as an oy bug',
      };
    default:
      return {
        summary: 'Anthropic had a server error',
        hint: 'retry in a little while; if it persists, check status.anthropic.com',
      };
  }
}
