import { createHash } from 'node:crypto';
import { lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { mcpServersSchema, type McpServers } from '../../config/mcp-servers-schema.js';

/** The workspace file Claude Code and others read, in the same shape. */
export const PROJECT_MCP_FILE = '.mcp.json';

const projectFileSchema = z.object({ mcpServers: mcpServersSchema }).strict();

/**
 * Variables that make the server's program, its interpreter or the dynamic loader run other code, find
 * another program under the command's name (PATH), or fetch another package (`npx`, `uvx`, `pip`).
 * The approval line shows every variable anyway; these are refused because they hide what runs.
 */
const CODE_LOADING_VARIABLES =
  /^(?:PATH|NODE_OPTIONS|NODE_PATH|LD_\w+|DYLD_\w+|PYTHON(?:STARTUP|PATH|HOME|USERBASE|EXECUTABLE)|PERL5OPT|PERL5LIB|PERLLIB|PERL5DB|RUBYOPT|RUBYLIB|BASH_ENV|ENV|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|GIT_\w+|NPM_CONFIG_\w+|UV_\w+|PIP_\w+)$/iu;

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
    const first = parsed.error.issues[0];
    // A bad server name is reported as an invalid record key; the name rule's own words say more.
    const issue = (first?.code === 'invalid_key' ? first.issues[0] : undefined) ?? first;
    const where = first?.path.length ? first.path.join('.') : '(top level)';
    return {
      file,
      problem: `${PROJECT_MCP_FILE}: ${where}: ${issue?.message ?? 'invalid'}; its servers are not used`,
    };
  }
  const refused = await findRefusedSetting(workspaceRoot, parsed.data.mcpServers);
  if (refused !== undefined)
    return { file, problem: `${PROJECT_MCP_FILE}: ${refused}; its servers are not used` };
  return { file, hash, servers: parsed.data.mcpServers };
}

/**
 * What a repository's server entry may not do even once approved, because the approval line would not
 * show what really runs: load other code through the environment, or start outside the workspace.
 */
async function findRefusedSetting(
  workspaceRoot: string,
  servers: McpServers,
): Promise<string | undefined> {
  const root = await realpath(workspaceRoot);
  for (const [name, config] of Object.entries(servers)) {
    if ('url' in config) continue;
    const variable = Object.keys(config.env ?? {}).find((key) => CODE_LOADING_VARIABLES.test(key));
    if (variable !== undefined)
      return `server ${name} sets ${variable}, which changes what code runs; only the user config may`;
    if (config.cwd !== undefined && !(await isInside(root, path.resolve(root, config.cwd))))
      return `server ${name} starts in ${config.cwd}, outside the workspace; only the user config may`;
  }
  return undefined;
}

/** Lexically and, where it exists, by real path (a link inside pointing out is outside). */
async function isInside(root: string, target: string): Promise<boolean> {
  const real = await realpath(target).catch(() => target);
  return [target, real].every(
    (candidate) => candidate === root || candidate.startsWith(root + path.sep),
  );
}

/** One line per server, to show the user before they approve: everything that decides what runs or is reached. */
export function describeMcpServers(servers: McpServers): string[] {
  return Object.entries(servers).map(([name, config]) => {
    if ('url' in config) {
      const headers = Object.keys(config.headers ?? {});
      return `${name}: ${config.url}${headers.length === 0 ? '' : ` (headers ${headers.join(', ')})`}`;
    }
    const words = [config.command, ...(config.args ?? [])].map((word) => JSON.stringify(word));
    const env = Object.entries(config.env ?? {}).map(
      ([key, value]) => `${key}=${JSON.stringify(value)}`,
    );
    return [
      `${name}: ${words.join(' ')}`,
      ...(config.cwd === undefined ? [] : [` in ${config.cwd}`]),
      ...(env.length === 0 ? [] : [` with ${env.join(' ')}`]),
    ].join('');
  });
}
