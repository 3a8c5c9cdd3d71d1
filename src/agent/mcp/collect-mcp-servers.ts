import type { McpServers } from '../../config/mcp-servers-schema.js';
import { isProjectMcpApproved } from './mcp-approvals.js';
import type { McpServerEntry } from './mcp-server-pool.js';
import { PROJECT_MCP_FILE, readProjectMcpFile, type ProjectMcpFile } from './project-mcp-file.js';

export interface CollectedMcpServers {
  entries: Record<string, McpServerEntry>;
  /** The workspace's `.mcp.json` when it names servers the user has not approved (in this content). */
  pending?: ProjectMcpFile;
  warnings: string[];
}

/**
 * The servers a run may use: the user config's, then an approved workspace `.mcp.json`'s (a name the
 * user config already has keeps the user's entry). An unapproved file is returned as `pending`, unused.
 */
export async function collectMcpServers(options: {
  userServers: McpServers;
  stateDir: string;
  workspaceRoot: string;
}): Promise<CollectedMcpServers> {
  const entries: Record<string, McpServerEntry> = {};
  for (const [name, config] of Object.entries(options.userServers))
    entries[name] = { config, source: 'user' };
  const warnings: string[] = [];
  const project = await readProjectMcpFile(options.workspaceRoot);
  if (project === undefined) return { entries, warnings };
  if ('problem' in project) return { entries, warnings: [project.problem] };
  if (Object.keys(project.servers).length === 0) return { entries, warnings };
  if (!(await isProjectMcpApproved(options.stateDir, options.workspaceRoot, project.hash)))
    return { entries, pending: project, warnings };
  addProjectServers(entries, project, warnings);
  return { entries, warnings };
}

/** Adds an approved file's servers; the user config wins a name both use. */
export function addProjectServers(
  entries: Record<string, McpServerEntry>,
  project: ProjectMcpFile,
  warnings: string[],
): void {
  for (const [name, config] of Object.entries(project.servers)) {
    if (Object.hasOwn(entries, name)) {
      warnings.push(
        `${PROJECT_MCP_FILE}: server ${name} ignored; the user config has a server of that name`,
      );
    } else entries[name] = { config, source: 'project' };
  }
}
