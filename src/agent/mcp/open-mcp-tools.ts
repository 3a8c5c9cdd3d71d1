import type { McpServers } from '../../config/mcp-servers-schema.js';
import type { AgentTool } from '../tools/tool-types.js';
import { addProjectServers, collectMcpServers } from './collect-mcp-servers.js';
import { createMcpTools } from './create-mcp-tools.js';
import { approveProjectMcp } from './mcp-approvals.js';
import { McpServerPool, type PoolOptions } from './mcp-server-pool.js';
import type { McpLaunch } from './prepare-mcp-spawn.js';
import { PROJECT_MCP_FILE, describeMcpServers } from './project-mcp-file.js';

export interface OpenMcpToolsOptions {
  userServers: McpServers;
  stateDir: string;
  workspaceRoot: string;
  baseEnv: PoolOptions['baseEnv'];
  allowedEnvNames: readonly string[];
  /** How stdio servers start: user servers in a neutral folder, project servers sandboxed. */
  launch: McpLaunch;
  redact(text: string): string;
  warn(line: string): void;
  /**
   * Asks the user once about a workspace `.mcp.json` they have not approved (oy chat); `true` is
   * remembered for this content. Without it (oy run) such a file is ignored.
   */
  approveProjectFile?: (servers: readonly string[]) => Promise<boolean>;
}

/** The run's MCP tools and the pool that serves them; `close()` stops every server. */
export interface OpenedMcpTools {
  tools: AgentTool[];
  pool: McpServerPool;
  close(): Promise<void>;
}

/**
 * Collects the run's servers (asking about a new `.mcp.json` when someone can answer), starts them
 * together, and turns their tools into agent tools. A server that fails is a warning; the run goes on.
 */
export async function openMcpTools(options: OpenMcpToolsOptions): Promise<OpenedMcpTools> {
  const collected = await collectMcpServers(options);
  collected.warnings.forEach(options.warn);
  const { entries, pending } = collected;
  if (pending !== undefined) {
    const lines = describeMcpServers(pending.servers);
    const isApproved = (await options.approveProjectFile?.(lines)) === true;
    if (isApproved) {
      await approveProjectMcp(options.stateDir, options.workspaceRoot, pending.hash);
      const warnings: string[] = [];
      addProjectServers(entries, pending, warnings);
      warnings.forEach(options.warn);
    } else {
      options.warn(
        `${PROJECT_MCP_FILE} names MCP servers (${Object.keys(pending.servers).join(', ')}) that were not approved, so they are not started; approve them with oy mcp approve, or when oy chat asks`,
      );
    }
  }
  const pool = new McpServerPool(entries, {
    workspaceRoot: options.workspaceRoot,
    baseEnv: options.baseEnv,
    allowedEnvNames: options.allowedEnvNames,
    launch: options.launch,
    onNotice: (line) => options.warn(options.redact(line)),
  });
  const started = await Promise.all(
    pool.names.map(async (server) => {
      try {
        return { server, tools: (await pool.start(server)).tools };
      } catch (error) {
        options.warn(
          `${options.redact(error instanceof Error ? error.message : String(error))}; its tools are not offered`,
        );
        return { server, tools: [] };
      }
    }),
  );
  return {
    tools: createMcpTools(pool, started, options.redact),
    pool,
    close: () => pool.close(),
  };
}
