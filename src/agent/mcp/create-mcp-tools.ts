import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import { ToolFailure, type AgentTool } from '../tools/tool-types.js';
import type { McpToolInfo } from './connect-mcp-server.js';
import { describeMcpContent } from './describe-mcp-content.js';
import type { McpServerPool } from './mcp-server-pool.js';
import { nameMcpTool } from './name-mcp-tool.js';
import { redactMcpSchema } from './redact-mcp-schema.js';

/** A server's description is its own words to the model: kept short, like a built-in tool's. */
const MAX_DESCRIPTION_CHARS = 2000;
// The server validates its own arguments; oy only insists on one JSON object.
const argumentsSchema = z.looseObject({});

/**
 * Every listed tool of the pool's started servers, as tools the loop runs through defineTool (the one
 * door). What a server says about its tools is untrusted and may hold a secret (a default, an example,
 * an enum): the name the model sees, the description and the whole input schema pass the session's
 * redactor here, the only place server metadata reaches a request. Nothing else of it is kept
 * (connect-mcp-server.ts keeps name, description, schema and the read-only mark; titles, other
 * annotations, prompts, resources and the server's instructions are never read).
 */
export function createMcpTools(
  pool: McpServerPool,
  listed: ReadonlyArray<{ server: string; tools: readonly McpToolInfo[] }>,
  redact: (text: string) => string,
): AgentTool[] {
  const taken = new Set<string>();
  const tools: AgentTool[] = [];
  for (const { server, tools: serverTools } of listed) {
    for (const info of serverTools) {
      // Named from redacted text: a secret in a tool's name never reaches the model in the tool list.
      const name = nameMcpTool(redact(server), redact(info.name), taken);
      taken.add(name);
      tools.push(createMcpTool(pool, server, info, name, redact));
    }
  }
  return tools;
}

function createMcpTool(
  pool: McpServerPool,
  server: string,
  info: McpToolInfo,
  name: ReturnType<typeof nameMcpTool>,
  redact: (text: string) => string,
): AgentTool {
  const target = { server, tool: info.name, isReadOnly: info.isReadOnly };
  const tool = defineTool({
    name,
    kind: 'mcp',
    description: '',
    schema: argumentsSchema,
    intend: () => ({ action: { kind: 'mcp', tool: 'mcp', mcp: target }, target }),
    // The arguments whole: the approval shows their head and tail, counts the rest and shows all on request.
    plan: (args) => ({ preview: JSON.stringify(args, null, 2), data: null }),
    execute: async (args, context) => {
      const access = context.shell.workspaceAccess;
      const result = await pool.callTool(server, info.name, args, context.signal, access);
      const output = describeMcpContent(result);
      if (result.isError) throw new ToolFailure(output.content || 'the MCP tool reported an error');
      return { ...output };
    },
  });
  // Redacted whole, then cut: a cut first could leave half a secret the redactor no longer knows.
  const description = redact(`[MCP server ${server}] ${info.description}`).slice(
    0,
    MAX_DESCRIPTION_CHARS,
  );
  return {
    ...tool,
    description,
    inputSchema: redactMcpSchema(info.inputSchema, redact),
    isOfferedInPlan: info.isReadOnly,
  };
}
