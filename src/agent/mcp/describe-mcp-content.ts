import type { McpCallResult } from './connect-mcp-server.js';

/** What the model reads of a tool call: the text blocks, and a note for what it cannot read. */
export interface McpOutput {
  content: string;
  notes?: string[];
  structured?: unknown;
}

/**
 * MCP content blocks as text: text blocks joined, images, audio and resources named in a note (their
 * bytes never reach the model), structured content kept only when there is no text.
 */
export function describeMcpContent(result: McpCallResult): McpOutput {
  const texts: string[] = [];
  const notes: string[] = [];
  for (const block of result.content) {
    const item = (block ?? {}) as Record<string, unknown>;
    const type = typeof item.type === 'string' ? item.type : 'unknown';
    if (type === 'text' && typeof item.text === 'string') texts.push(item.text);
    else if (type === 'image' || type === 'audio')
      notes.push(`${type} (${String(item.mimeType ?? 'unknown type')}) not shown`);
    else if (type === 'resource') {
      const resource = (item.resource ?? {}) as Record<string, unknown>;
      notes.push(`embedded resource ${String(resource.uri ?? '(no uri)')} not shown`);
    } else if (type === 'resource_link')
      notes.push(`resource link ${String(item.uri ?? '(no uri)')} not followed`);
    else notes.push(`a ${type} block not shown`);
  }
  return {
    content: texts.join('\n'),
    ...(notes.length > 0 ? { notes } : {}),
    ...(texts.length === 0 && result.structuredContent !== undefined
      ? { structured: result.structuredContent }
      : {}),
  };
}
