import { resolveOyPaths } from '../../config/config-paths.js';
import type { SandboxSetting } from '../../config/config-schema.js';
import { OY_VERSION } from '../../shared/version.js';
import { stringifyForTerminal } from '../../shared/terminal/stringify-for-terminal.js';
import { checkConfigFiles } from '../doctor/check-config-files.js';
import { checkCredentials } from '../doctor/check-credentials.js';
import { checkMcpServers } from '../doctor/check-mcp-servers.js';
import { checkModel } from '../doctor/check-model.js';
import { checkNodeVersion } from '../doctor/check-node-version.js';
import { checkOnline } from '../doctor/check-online.js';
import { checkSandbox } from '../doctor/check-sandbox.js';
import { checkSandboxScope } from '../doctor/check-sandbox-scope.js';
import { checkTools } from '../doctor/check-tools.js';
import { checkWorkspace } from '../doctor/check-workspace.js';
import { describeSafetyPolicy } from '../doctor/describe-safety-policy.js';
import { describeTerminal } from '../doctor/describe-terminal.js';
import { hasPassed, type DoctorCheck } from '../doctor/doctor-check.js';
import { renderDoctorReport } from '../doctor/render-doctor-report.js';
import type { GlobalOptions } from '../global-options.js';

import { createColors, shouldColor } from '../terminal.js';

export interface DoctorFlags extends GlobalOptions {
  online?: boolean;
}

/** `oy doctor`: every set-up check, printed (or JSON); exit 1 when a required one failed. No network without --online. */
export async function runDoctorCommand(flags: DoctorFlags): Promise<void> {
  const env = process.env;
  const paths = resolveOyPaths(env);
  const workspace = checkWorkspace(flags.cwd, env);
  const config = await checkConfigFiles(paths.userConfigFile, workspace.root);
  const model = checkModel(
    {
      flag: flags.model,
      env: env.OY_MODEL,
      config: config.userFile?.model,
      models: config.userFile?.models,
    },
    paths.userConfigFile,
    env,
  );
  const sandboxSetting = sandboxSettingOf(config);
  const [tools, sandbox, mcp] = await Promise.all([
    checkTools(env),
    checkSandbox(env, process.platform, sandboxSetting),
    workspace.root === null
      ? []
      : checkMcpServers({
          userFile: config.userFile,
          stateDir: paths.stateDir,
          workspaceRoot: workspace.root,
          env,
          sandboxSetting,
          hasNetwork: networkSettingOf(config),
        }),
  ]);
  const sandboxScope = checkSandboxScope({
    env,
    workspace: workspace.root,
    commands: commandsFor(sandboxSetting, sandbox.data?.isAvailable === true),
    hasNetwork: networkSettingOf(config),
    homePaths: config.userFile?.agent?.homePaths ?? [],
    hooks: config.userFile?.hooks ?? {},
  });

  const checks: DoctorCheck[] = [
    checkNodeVersion(),
    { id: 'oy', status: 'info', detail: `oy ${OY_VERSION}`, data: { version: OY_VERSION } },
    workspace.check,
    ...config.checks,
    ...model.checks,
    checkCredentials(env),
    ...tools,
    sandbox,
    ...sandboxScope,
    ...mcp,
    describeTerminal(process.stdout, process.stderr, flags, env),
    describeSafetyPolicy(config.userFile, config.projectFile),
  ];
  if (flags.online) checks.push(await checkOnline(model.ref, env));

  const isOk = hasPassed(checks);
  if (flags.json) {
    process.stdout.write(stringifyForTerminal({ ok: isOk, checks }, 2) + '\n');
  } else {
    const colors = createColors(shouldColor(process.stdout, flags, env));
    process.stdout.write(renderDoctorReport(checks, colors));
  }
  process.exitCode = isOk ? 0 : 1;
}

/** The sandbox setting as the agent would see it: a project file may only turn it on. */
function sandboxSettingOf(config: Awaited<ReturnType<typeof checkConfigFiles>>): SandboxSetting {
  if (config.projectFile?.agent?.sandbox === 'on') return 'on';
  return config.userFile?.agent?.sandbox ?? 'auto';
}

/** agent.network as the agent would see it: only the user file turns it on, a project may turn it off. */
function networkSettingOf(config: Awaited<ReturnType<typeof checkConfigFiles>>): boolean {
  if (config.projectFile?.agent?.network === false) return false;
  return config.userFile?.agent?.network ?? false;
}

/** How the bash tool will run commands, from the setting and whether bwrap works. */
function commandsFor(setting: SandboxSetting, isAvailable: boolean) {
  if (setting === 'off') return 'unsandboxed';
  if (isAvailable) return 'sandboxed';
  return setting === 'on' ? 'refused' : 'unsandboxed';
}
