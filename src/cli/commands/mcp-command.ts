import {
  approveProjectMcp,
  inspectMcpServers,
  PROJECT_MCP_FILE,
  describeMcpServers,
  readProjectMcpFile,
  type McpInspection,
} from '../../agent/index.js';
import { loadConfig } from '../../config/load-config.js';
import { UsageError } from '../../shared/errors.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { stringifyForTerminal } from '../../shared/terminal/stringify-for-terminal.js';
import type { GlobalOptions } from '../global-options.js';
import { resolveWorkspaceRoot } from '../resolve-workspace-root.js';

const ACTIONS = ['list', 'approve'] as const;

/** `oy mcp [list]`: each server, its status and tools; `oy mcp approve`: trust this workspace's `.mcp.json` as it is now. */
export async function runMcpCommand(
  action: string | undefined,
  flags: GlobalOptions,
): Promise<void> {
  const env = process.env;
  const root = resolveWorkspaceRoot(flags.cwd, env);
  const { config, paths, warnings } = await loadConfig({ workspaceRoot: root, env, flags: {} });
  if (!flags.quiet) for (const line of warnings) process.stderr.write(`warning: ${show(line)}\n`);
  if (action === 'approve') {
    const project = await readProjectMcpFile(root);
    if (project === undefined)
      throw new UsageError(`there is no ${PROJECT_MCP_FILE} in ${show(root)}`, {
        hint: 'oy mcp approve trusts the servers a workspace .mcp.json names',
      });
    if ('problem' in project)
      throw new UsageError(project.problem, {
        hint: `nothing was approved; until ${PROJECT_MCP_FILE} is fixed, oy starts none of its servers`,
      });
    await approveProjectMcp(paths.stateDir, root, project.hash);
    const lines = describeMcpServers(project.servers).map((line) => `  ${show(line)}`);
    process.stdout.write(
      `approved ${PROJECT_MCP_FILE} of ${show(root)} as it is now (a change asks again):\n${lines.join('\n')}\n`,
    );
    return;
  }
  if (action !== undefined && action !== 'list')
    throw new UsageError(`unknown oy mcp action ${JSON.stringify(show(action))}`, {
      hint: `choose ${ACTIONS.join(' or ')}`,
    });
  const inspection = await inspectMcpServers({
    userServers: config.mcpServers,
    stateDir: paths.stateDir,
    workspaceRoot: root,
    baseEnv: env,
    allowedEnvNames: config.agent.allowEnv,
    sandbox: {
      setting: config.agent.sandbox,
      allowNetwork: config.agent.network,
      homePaths: config.agent.homePaths ?? [],
    },
  });
  if (!flags.quiet)
    for (const line of inspection.warnings) process.stderr.write(`warning: ${show(line)}\n`);
  if (flags.json) process.stdout.write(stringifyForTerminal(inspection, 2) + '\n');
  else process.stdout.write(renderInspection(inspection));
  if (inspection.servers.some((server) => server.state === 'failed')) process.exitCode = 1;
}

function renderInspection(inspection: McpInspection): string {
  const lines: string[] = [];
  if (inspection.servers.length === 0 && inspection.pending.length === 0)
    lines.push('no MCP servers configured ("mcpServers" in the user config)');
  for (const server of inspection.servers) {
    const state = server.state === 'failed' ? `failed: ${server.error ?? ''}` : 'ok';
    lines.push(`${show(server.name)} (${server.source}): ${show(state)}`);
    for (const tool of server.tools)
      lines.push(`  ${show(tool.offeredAs)}${tool.isReadOnly ? ' (read-only)' : ''}`);
  }
  if (inspection.pending.length > 0)
    lines.push(`${PROJECT_MCP_FILE}: not approved, not started; oy mcp approve trusts these:`);
  for (const line of inspection.pendingLines) lines.push(`  ${show(line)}`);
  return `${lines.join('\n')}\n`;
}

function show(text: string): string {
  return neutralizeControl(text, { lineBreaks: 'show' });
}
