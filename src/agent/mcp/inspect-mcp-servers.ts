import type { McpServers } from '../../config/mcp-servers-schema.js';
import { collectMcpServers } from './collect-mcp-servers.js';
import { McpServerPool, type McpServerStatus, type PoolOptions } from './mcp-server-pool.js';
import { nameMcpTool } from './name-mcp-tool.js';
import type { McpLaunch } from './prepare-mcp-spawn.js';
import { describeMcpServers } from './project-mcp-file.js';

export interface McpServerReport extends Omit<McpServerStatus, 'tools'> {
  tools: Array<{ name: string; offeredAs: string; isReadOnly: boolean }>;
}

export interface McpInspection {
  servers: McpServerReport[];
  /** Servers of a workspace `.mcp.json` not approved in this content: listed, never started. */
  pending: string[];
  /** What each of them would run or reach (describeMcpServers), to read before `oy mcp approve`. */
  pendingLines: string[];
  warnings: string[];
}

/**
 * Starts every server a run would use, lists its tools, and stops it again (`oy mcp list`, `oy
 * doctor`): user servers in their neutral folder, project servers sandboxed with the workspace
 * read-only (listing tools changes nothing).
 */
export async function inspectMcpServers(options: {
  userServers: McpServers;
  stateDir: string;
  workspaceRoot: string;
  baseEnv: PoolOptions['baseEnv'];
  allowedEnvNames: readonly string[];
  sandbox: McpLaunch['sandbox'];
}): Promise<McpInspection> {
  const { entries, pending, warnings } = await collectMcpServers(options);
  const notices: string[] = [];
  const pool = new McpServerPool(entries, {
    workspaceRoot: options.workspaceRoot,
    baseEnv: options.baseEnv,
    allowedEnvNames: options.allowedEnvNames,
    launch: { sandbox: options.sandbox, workspaceAccess: 'read-only' },
    onNotice: (line) => notices.push(line),
  });
  try {
    await Promise.all(pool.names.map((name) => pool.start(name).catch(() => undefined)));
    const taken = new Set<string>();
    const servers = pool.names.map((name) => {
      const status = pool.status(name);
      return {
        ...status,
        tools: status.tools.map((tool) => {
          const offeredAs = nameMcpTool(name, tool.name, taken);
          taken.add(offeredAs);
          return { name: tool.name, offeredAs, isReadOnly: tool.isReadOnly };
        }),
      };
    });
    const pendingServers = pending?.servers ?? {};
    return {
      servers,
      pending: Object.keys(pendingServers),
      pendingLines: describeMcpServers(pendingServers),
      warnings: [...warnings, ...notices],
    };
  } finally {
    await pool.close();
  }
}
