/**
 * Where a tool call's arguments go when the model produced JSON that does not parse (or nested too deep):
 * `{ "__invalid_json": "<raw text>" }`. The call still reaches the tool loop (whose argument validation
 * rejects it and tells the model), and it goes back as the JSON object Anthropic and Bedrock require.
 */
export const INVALID_TOOL_JSON_KEY = '__invalid_json';

/** A tool call's arguments as a JSON object: anything else is carried as text under the invalid-JSON key. */
export function toToolInput(args: unknown): Record<string, unknown> {
  if (typeof args === 'object' && args !== null && !Array.isArray(args))
    return args as Record<string, unknown>;
  return {
    [INVALID_TOOL_JSON_KEY]: typeof args === 'string' ? args : JSON.stringify(args ?? null),
  };
}
