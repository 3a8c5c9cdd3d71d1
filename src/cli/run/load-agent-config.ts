import type { OyConfig } from '../../config/config-schema.js';
import type { OyPaths } from '../../config/config-paths.js';
import { loadConfig } from '../../config/load-config.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { GlobalOptions } from '../global-options.js';

/** What `oy run` and `oy chat` open the agent with. */
export interface AgentCommandConfig {
  env: NodeJS.ProcessEnv;
  config: OyConfig;
  paths: OyPaths;
  /** A warning on stderr, one line, unless --quiet. */
  warn(line: string): void;
}

/** The merged config (`--model` over the environment and the files), its warnings already shown. */
export async function loadAgentConfig(
  workspaceRoot: string,
  flags: GlobalOptions,
): Promise<AgentCommandConfig> {
  const env = process.env;
  const { config, warnings, paths } = await loadConfig({
    workspaceRoot,
    env,
    flags: flags.model === undefined ? {} : { model: String(flags.model) },
  });
  const warn = (line: string) =>
    void (flags.quiet || process.stderr.write(`warning: ${neutralizeControl(line)}\n`));
  warnings.forEach(warn);
  return { env, config, paths, warn };
}
