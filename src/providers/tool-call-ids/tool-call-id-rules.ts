/** What a service accepts as a tool call's id, from its API reference. */
export interface ToolCallIdRule {
  /** Characters an id may hold; null when the service documents none. */
  allowed: RegExp | null;
  maxLength: number;
}

/**
 * Each wire format's rule for tool-use ids it is sent back. A session continued on another
 * provider carries the previous one's ids: vLLM and transformers serve issue 46–48 characters,
 * Kimi-style servers `functions.name:0`.
 */
export const TOOL_CALL_ID_RULES = {
  /** `tool_use.id` / `tool_use_id`: `^[a-zA-Z0-9_-]+$`; no length is documented, so Bedrock's 64 is kept. */
  anthropic: { allowed: /^[a-zA-Z0-9_-]+$/, maxLength: 64 },
  /** Converse `ToolUseBlock.toolUseId` / `ToolResultBlock.toolUseId`: `[a-zA-Z0-9_-]+`, 1 to 64. */
  bedrock: { allowed: /^[a-zA-Z0-9_-]+$/, maxLength: 64 },
  /** Chat Completions `tool_calls[].id`: at most 40 characters; OpenAI-compatible servers take what OpenAI takes. */
  openai: { allowed: null, maxLength: 40 },
} as const satisfies Record<string, ToolCallIdRule>;
