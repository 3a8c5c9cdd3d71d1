/** What a Bedrock model family accepts beyond the common Converse fields. */
export interface BedrockModelFeatures {
  /** Cache points in `system` and `messages`. */
  promptCache: boolean;
  /** A cache point after the tool definitions (Claude only). */
  toolCache: boolean;
  /** Extended thinking through `additionalModelRequestFields.thinking`. */
  thinking: boolean;
}

/**
 * Judged from the model id, which names the family for foundation models and system inference profiles
 * (`anthropic.claude-…`, `us.anthropic.claude-…`, `amazon.nova-…`). An application inference profile ARN
 * names no family, so it gets none of these.
 */
export function bedrockModelFeatures(model: string): BedrockModelFeatures {
  const isClaude = /anthropic\.claude/i.test(model);
  const isNova = /amazon\.nova/i.test(model);
  return { promptCache: isClaude || isNova, toolCache: isClaude, thinking: isClaude };
}
