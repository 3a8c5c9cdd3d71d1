import { createHash } from 'node:crypto';
import type { McpToolName } from '../tools/tool-types.js';

/** Anthropic, OpenAI and Bedrock all accept tool names of at most 64 characters from this set. */
export const MAX_TOOL_NAME_CHARS = 64;
const UNSAFE_CHARACTERS = /[^A-Za-z0-9_-]/gu;
const HASH_CHARS = 8;

/**
 * `mcp__<server>__<tool>` in the characters every provider accepts. A name that had to change
 * (unsafe characters, too long, or already taken) ends in a short hash of the original, so two
 * tools never share a name; the caller keeps the map back to the server's own names.
 */
export function nameMcpTool(server: string, tool: string, taken: ReadonlySet<string>): McpToolName {
  const plain = `mcp__${server}__${tool}`;
  const safe = plain.replace(UNSAFE_CHARACTERS, '_');
  if (safe === plain && safe.length <= MAX_TOOL_NAME_CHARS && !taken.has(safe))
    return safe as McpToolName;
  for (let salt = 0; ; salt += 1) {
    const hash = createHash('sha256')
      .update(`${server}\0${tool}\0${salt}`)
      .digest('hex')
      .slice(0, HASH_CHARS);
    const name = `${safe.slice(0, MAX_TOOL_NAME_CHARS - HASH_CHARS - 1)}_${hash}`;
    if (!taken.has(name)) return name as McpToolName;
  }
}
