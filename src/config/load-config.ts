import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../shared/errors.js';
import { configFileSchema, type ConfigFile } from './config-schema.js';
import { resolveOyPaths, type OyPaths } from './config-paths.js';
import { mergeConfig, type ConfigLayer, type MergedConfig } from './merge-config.js';

export interface LoadConfigOptions {
  workspaceRoot: string;
  env: NodeJS.ProcessEnv;
  /** Values from command-line flags, already shaped like a config file. */
  flags: ConfigFile;
}

export interface LoadedConfig extends MergedConfig {
  paths: OyPaths;
}

/** Reads the user file, the project file and the environment, then merges them under the flags. */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const paths = resolveOyPaths(options.env);
  const layers: ConfigLayer[] = [];
  const userFile = await readConfigFile(paths.userConfigFile);
  if (userFile) layers.push({ kind: 'user', source: paths.userConfigFile, values: userFile });
  const projectPath = projectConfigPath(options.workspaceRoot);
  const linkWarning = await findSymlinkedProjectPath(options.workspaceRoot);
  const projectFile = linkWarning === null ? await readConfigFile(projectPath) : undefined;
  if (projectFile) layers.push({ kind: 'project', source: projectPath, values: projectFile });
  layers.push({
    kind: 'environment',
    source: 'environment',
    values: readEnvironmentLayer(options.env),
  });
  layers.push({ kind: 'flags', source: 'command line', values: options.flags });
  const merged = mergeConfig(layers);
  if (linkWarning !== null) merged.warnings.unshift(linkWarning);
  return { ...merged, paths };
}

/** The repository's own config file: `.oy/config.json` at the workspace root. */
export function projectConfigPath(workspaceRoot: string): string {
  return path.join(workspaceRoot, '.oy', 'config.json');
}

/**
 * A repository could link its project file to any file of the user's, whose text a parse error
 * would then quote on stderr (a CI log); a symlinked `.oy` or `.oy/config.json` is not read, by
 * the audit, the agent or `oy doctor`. Returns why, or null when the file may be read.
 */
export async function findSymlinkedProjectPath(workspaceRoot: string): Promise<string | null> {
  const projectPath = projectConfigPath(workspaceRoot);
  for (const candidate of [path.dirname(projectPath), projectPath]) {
    try {
      if ((await lstat(candidate)).isSymbolicLink()) {
        return `${path.relative(workspaceRoot, candidate)} is a symlink; the project file is not read`;
      }
    } catch {
      return null;
    }
  }
  return null;
}

function readEnvironmentLayer(env: NodeJS.ProcessEnv): ConfigFile {
  return env.OY_MODEL ? { model: env.OY_MODEL } : {};
}

/** Reads and validates one config file; a missing file is no layer, a bad one is an error naming it. */
export async function readConfigFile(filePath: string): Promise<ConfigFile | undefined> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError(`cannot read config file ${filePath} (${code ?? 'unknown error'})`, {
      hint: 'check its permissions',
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `config file ${filePath} is not valid JSON: ${(error as Error).message}`,
      {
        hint: 'fix the file or move it aside',
        cause: error,
      },
    );
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    // Every problem at once, so fixing a file takes one round, not one per mistake.
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
      return `${where}: ${issue.message}`;
    });
    const message =
      problems.length === 1
        ? `config file ${filePath}: ${problems[0]}`
        : `config file ${filePath} has ${problems.length} problems:\n${problems.map((line) => `  ${line}`).join('\n')}`;
    throw new ConfigError(message, {
      hint: 'see README.md, "Configuration", for the keys a config file may hold and "Permission rules" for their form',
    });
  }
  return parsed.data;
}
