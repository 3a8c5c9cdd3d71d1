import { z } from 'zod';
import { MAX_ARGUMENT_DEPTH, valueNestsDeeper } from '../../providers/bound-tool-arguments.js';
import { redactJson } from '../../safety/redact/redact-json.js';
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
/** What a schema too large, too deep or unreadable after redaction becomes: any object. */
const BARE_SCHEMA: Readonly<Record<string, unknown>> = {
  type: 'object',
  additionalProperties: true,
};

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
      const result = await pool.callTool(server, info.name, args, context.signal);
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
    inputSchema: redactSchema(info.inputSchema, redact),
    isOfferedInPlan: info.isReadOnly,
  };
}

/**
 * The schema with every string (keys, defaults, enums, examples, descriptions, titles, at any depth)
 * redacted, then its JSON text redacted again, so a rule that needs the key beside the value
 * (`"password": "…"`) sees both; a result that no longer parses, or a schema too deep or too large,
 * becomes a bare object.
 */
function redactSchema(
  schema: Record<string, unknown>,
  redact: (text: string) => string,
): Record<string, unknown> {
  if (schema.type !== 'object' || valueNestsDeeper(schema, MAX_ARGUMENT_DEPTH))
    return { ...BARE_SCHEMA };
  const text = JSON.stringify(redactJson(schema, redact));
  if (text.length > MAX_SCHEMA_CHARS) return { ...BARE_SCHEMA };
  try {
    const parsed: unknown = JSON.parse(redact(text));
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // A placeholder that broke the JSON: fall through to the bare object.
  }
  return { ...BARE_SCHEMA };
}
