import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { mcpServersSchema, type McpServers } from '../../config/mcp-servers-schema.js';

/** The workspace file Claude Code and others read, in the same shape. */
export const PROJECT_MCP_FILE = '.mcp.json';

const projectFileSchema = z.object({ mcpServers: mcpServersSchema }).strict();

/** A workspace's `.mcp.json`: its servers, and the hash its approval is remembered under. */
export interface ProjectMcpFile {
  file: string;
  /** sha256 of the exact bytes: any change asks again. */
  hash: string;
  servers: McpServers;
}

/**
 * Reads the workspace's `.mcp.json`, or undefined when there is none. A symlink is not followed and a
 * malformed file is an error message (never its content: it could be any of the user's files).
 */
export async function readProjectMcpFile(
  workspaceRoot: string,
): Promise<ProjectMcpFile | { file: string; problem: string } | undefined> {
  const file = path.join(workspaceRoot, PROJECT_MCP_FILE);
  try {
    if ((await lstat(file)).isSymbolicLink())
      return { file, problem: `${PROJECT_MCP_FILE} is a symlink; it is not read` };
  } catch {
    return undefined;
  }
  const bytes = await readFile(file);
  const hash = createHash('sha256').update(bytes).digest('hex');
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { file, problem: `${PROJECT_MCP_FILE} is not valid JSON; its servers are not used` };
  }
  const parsed = projectFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(top level)';
    return {
      file,
      problem: `${PROJECT_MCP_FILE}: ${where}: ${issue?.message ?? 'invalid'}; its servers are not used`,
    };
  }
  return { file, hash, servers: parsed.data.mcpServers };
}

/** One line per server, to show the user before they approve: what will run or be reached. */
export function describeMcpServers(servers: McpServers): string[] {
  return Object.entries(servers).map(([name, config]) =>
    'url' in config
      ? `${name}: ${config.url}`
      : `${name}: ${[config.command, ...(config.args ?? [])].map((word) => JSON.stringify(word)).join(' ')}${config.cwd === undefined ? '' : ` (in ${config.cwd})`}`,
  );
}
