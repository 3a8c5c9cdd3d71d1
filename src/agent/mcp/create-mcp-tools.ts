import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import { ToolFailure, type AgentTool } from '../tools/tool-types.js';
import type { McpToolInfo } from './connect-mcp-server.js';
import { describeMcpContent } from './describe-mcp-content.js';
import type { McpServerPool } from './mcp-server-pool.js';
import { nameMcpTool } from './name-mcp-tool.js';

/** A server's description is its own words to the model: kept short, like a built-in tool's. */
const MAX_DESCRIPTION_CHARS = 2000;
/** A schema larger than this is replaced by a bare object: it would crowd every request. */
const MAX_SCHEMA_CHARS = 20_000;
/** The preview shows this much of the arguments. */
const MAX_PREVIEW_CHARS = 2000;

// The server validates its own arguments; oy only insists on one JSON object.
const argumentsSchema = z.looseObject({});

/** Every listed tool of the pool's started servers, as tools the loop runs through defineTool (the one door). */
export function createMcpTools(
  pool: McpServerPool,
  listed: ReadonlyArray<{ server: string; tools: readonly McpToolInfo[] }>,
  redact: (text: string) => string,
): AgentTool[] {
  const taken = new Set<string>();
  const tools: AgentTool[] = [];
  for (const { server, tools: serverTools } of listed) {
    for (const info of serverTools) {
      const name = nameMcpTool(server, info.name, taken);
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
    plan: (args) => ({
      preview: `${server}:${info.name} ${JSON.stringify(args, null, 2)}`.slice(
        0,
        MAX_PREVIEW_CHARS,
      ),
      data: null,
    }),
    execute: async (args, context) => {
      const access = context.shell.workspaceAccess;
      const result = await pool.callTool(server, info.name, args, context.signal, access);
      const output = describeMcpContent(result);
      if (result.isError) throw new ToolFailure(output.content || 'the MCP tool reported an error');
      return { ...output };
    },
  });
  const description = redact(
    `[MCP server ${server}] ${info.description}`.slice(0, MAX_DESCRIPTION_CHARS),
  );
  return {
    ...tool,
    description,
    inputSchema: boundSchema(info.inputSchema),
    isOfferedInPlan: info.isReadOnly,
  };
}

function boundSchema(schema: Record<string, unknown>): Record<string, unknown> {
  if (schema.type !== 'object' || JSON.stringify(schema).length > MAX_SCHEMA_CHARS)
    return { type: 'object', additionalProperties: true };
  return schema;
}
