import { z } from 'zod';

/** 30 s: a server that has not answered `initialize` and `tools/list` by then is not coming up. */
export const DEFAULT_MCP_STARTUP_TIMEOUT_SECONDS = 30;
/** 60 s: the SDK's own default per request; a longer task should say so in the server's config. */
export const DEFAULT_MCP_CALL_TIMEOUT_SECONDS = 60;

const timeouts = {
  /** Seconds to start and list tools before the server is given up for this run. */
  startupTimeoutSeconds: z.number().int().min(1).max(600).optional(),
  /** Seconds one tool call may take before it is cut and the server stopped. */
  timeoutSeconds: z.number().int().min(1).max(3600).optional(),
};

const stdioServer = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    /** Added to the scrubbed environment: the only way a credential reaches the server. */
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().min(1).optional(),
    ...timeouts,
  })
  .strict();

const httpServer = z
  .object({
    url: z.url({ protocol: /^https?$/ }),
    headers: z.record(z.string(), z.string()).optional(),
    ...timeouts,
  })
  .strict();

export const mcpServerSchema = z.union([stdioServer, httpServer]);

/** One MCP server: a command to start (stdio) or a URL to reach (streamable HTTP). */
export type McpServerConfig = z.infer<typeof mcpServerSchema>;

/**
 * Server names become part of tool names (`mcp__<server>__<tool>`) and rules (`Mcp(<server>)`); without
 * `__` in them, the first `__` after `mcp__` ends the server's name, so no server can pose as another.
 */
export const MCP_SERVER_NAME = /^(?!.*__)[A-Za-z0-9_-]{1,40}$/;

export const mcpServersSchema = z.record(
  z.string().regex(MCP_SERVER_NAME, 'a server name is 1 to 40 letters, digits, _ or -, without __'),
  mcpServerSchema,
);

export type McpServers = z.infer<typeof mcpServersSchema>;
