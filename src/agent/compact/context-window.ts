import type { ModelRef } from '../../providers/types.js';

/** Every hosted frontier model of 2025 has at least this; an unknown one is assumed to have no more. */
export const DEFAULT_HOSTED_CONTEXT_TOKENS = 128_000;

/** Local servers run with whatever window they were started with, often small: assume little. */
export const DEFAULT_LOCAL_CONTEXT_TOKENS = 32_768;

interface WindowEntry {
  /** Tested against the lower-cased model name anywhere in it, so `us.anthropic.claude-…` and `anthropic/claude-…` match. */
  pattern: RegExp;
  tokens: number;
}

/**
 * Known windows by model family, first match wins. Claude Sonnet's 1M-token beta needs a header oy does not
 * send, so Claude is 200k. Open-weight families (Llama, Qwen, Mistral, …) get the local default wherever they run.
 */
const KNOWN_WINDOWS: readonly WindowEntry[] = [
  { pattern: /claude/, tokens: 200_000 },
  { pattern: /gpt-4\.1/, tokens: 1_047_576 },
  { pattern: /gpt-5(?:\.\d+)?-chat/, tokens: 128_000 },
  { pattern: /gpt-5/, tokens: 400_000 },
  { pattern: /gpt-4o/, tokens: 128_000 },
  { pattern: /gpt-4-turbo/, tokens: 128_000 },
  { pattern: /gpt-oss/, tokens: 131_072 },
  { pattern: /(?:^|\/)o1-(?:mini|preview)/, tokens: 128_000 },
  { pattern: /(?:^|\/)o[134](?:-|$)/, tokens: 200_000 },
  { pattern: /nova-(?:pro|lite|premier)/, tokens: 300_000 },
  { pattern: /gemini/, tokens: 1_000_000 },
  {
    pattern: /llama|qwen|mistral|mixtral|codestral|gemma|phi|deepseek/,
    tokens: DEFAULT_LOCAL_CONTEXT_TOKENS,
  },
];

/** The context window in tokens: the config's `agent.contextWindow` when set, else the table, else a conservative default. */
export function contextWindowFor(ref: ModelRef, override: number | null): number {
  if (override !== null && Number.isFinite(override) && override > 0) return Math.floor(override);
  const model = ref.model.toLowerCase();
  const known = KNOWN_WINDOWS.find((entry) => entry.pattern.test(model));
  if (known) return known.tokens;
  return ref.provider === 'local' || ref.provider === 'ollama'
    ? DEFAULT_LOCAL_CONTEXT_TOKENS
    : DEFAULT_HOSTED_CONTEXT_TOKENS;
}
