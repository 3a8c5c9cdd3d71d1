import { inspectMcpServers, PROJECT_MCP_FILE } from '../../agent/index.js';
import type { ConfigFile, SandboxSetting } from '../../config/config-schema.js';
import type { DoctorCheck } from './doctor-check.js';

/** One check per MCP server a run would use: it starts and lists its tools (then it is stopped again). */
export async function checkMcpServers(options: {
  userFile: ConfigFile | undefined;
  stateDir: string;
  workspaceRoot: string;
  env: NodeJS.ProcessEnv;
  /** The sandbox setting as the agent would see it (project servers start inside it). */
  sandboxSetting: SandboxSetting;
  hasNetwork: boolean;
}): Promise<DoctorCheck[]> {
  const userServers = options.userFile?.mcpServers ?? {};
  const inspection = await inspectMcpServers({
    userServers,
    stateDir: options.stateDir,
    workspaceRoot: options.workspaceRoot,
    baseEnv: options.env,
    allowedEnvNames: options.userFile?.agent?.allowEnv ?? [],
    sandbox: {
      setting: options.sandboxSetting,
      allowNetwork: options.hasNetwork,
      homePaths: options.userFile?.agent?.homePaths ?? [],
    },
  });
  const checks: DoctorCheck[] = inspection.servers.map((server) =>
    server.state === 'failed'
      ? {
          id: `mcp:${server.name}`,
          status: 'warn',
          detail: `MCP server ${server.name} (${server.source}): ${server.error ?? 'failed'}`,
          hint: 'check its command or URL in the config; oy mcp list shows every server',
          data: { source: server.source, state: server.state },
        }
      : {
          id: `mcp:${server.name}`,
          status: 'ok',
          detail: `MCP server ${server.name} (${server.source}): started, ${server.tools.length} tool(s)`,
          data: { source: server.source, tools: server.tools.map((tool) => tool.offeredAs) },
        },
  );
  if (inspection.pending.length > 0)
    checks.push({
      id: 'mcp:project',
      status: 'info',
      detail: `${PROJECT_MCP_FILE} names servers not approved (${inspection.pending.join(', ')}); they are not started`,
      hint: 'oy mcp approve trusts the file as it is now',
    });
  return checks;
}
