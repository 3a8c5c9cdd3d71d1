import type { AgentSessionOptions } from '../../agent/agent-session.js';
import { openMcpTools } from '../../agent/mcp/open-mcp-tools.js';
import { loadInstructions, type InstructionFile } from '../../agent/prompt/load-instructions.js';
import { loadRecording, type Recording } from '../../agent/replay/load-recording.js';
import { loadSession, type LoadedSession } from '../../agent/session/session-store.js';
import type { OyConfig } from '../../config/config-schema.js';
import type { OyPaths } from '../../config/config-paths.js';
import { loadConfig } from '../../config/load-config.js';
import { createModelClient } from '../../providers/create-model-client.js';
import { withConfiguredFacts } from '../../providers/model-facts/configured-models.js';
import { parseModelId } from '../../providers/model-id/parse-model-id.js';
import type { ModelClient, ModelRef } from '../../providers/types.js';
import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import { createRedactor } from '../../safety/redact/index.js';
import { UsageError } from '../../shared/errors.js';
import { OY_VERSION } from '../../shared/version.js';
import type { GlobalOptions } from '../global-options.js';
import { userInstructionsPath } from './user-instructions-path.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';

/** What `oy run` and `oy chat` both need before their first turn. */
export interface PreparedAgentCommand {
  workspaceRoot: string;
  env: NodeJS.ProcessEnv;
  config: OyConfig;
  paths: OyPaths;
  warn(line: string): void;
  loaded: LoadedSession | undefined;
  /** The session `--replay` names, with its recorded turns. */
  recording: Recording | undefined;
  ref: ModelRef;
  createClient(ref: ModelRef): Promise<ModelClient>;
  /** The session's one redactor: prompts, tool results, instructions and summaries all pass it. */
  redact(text: string): string;
  instructions: InstructionFile[];
}

/**
 * Config, the session to resume, the model (flag, environment, config, else the resumed session's; a
 * replay's is the recorded one), a client factory that reports retries on stderr, the redactor and the
 * instruction files.
 */
export async function prepareAgentCommand(
  command: 'oy run' | 'oy chat',
  root: string,
  resume: string | null,
  flags: GlobalOptions,
  replay: string | null = null,
): Promise<PreparedAgentCommand> {
  const env = process.env;
  const { config, warnings, paths } = await loadConfig({
    workspaceRoot: root,
    env,
    flags: flags.model === undefined ? {} : { model: String(flags.model) },
  });
  const warn = (line: string) =>
    void (flags.quiet || process.stderr.write(`warning: ${neutralizeControl(line)}\n`));
  warnings.forEach(warn);
  const loaded = resume === null ? undefined : await loadSession(paths.stateDir, root, resume);
  const recording = replay === null ? undefined : await loadRecording(paths.stateDir, root, replay);
  const modelId = recording?.summary.model ?? config.model ?? loaded?.summary.model ?? null;
  if (modelId === null) {
    throw new UsageError(`no model configured, and ${command} needs one`, {
      hint: 'save a default with oy model <id>, or pass --model <id> (or set OY_MODEL); oy model lists them',
    });
  }
  // Facts from the user config's `models` ride on the ref, so `/model` switches pick them up too.
  const createClient = (ref: ModelRef) =>
    createModelClient(withConfiguredFacts(ref, config.models), env, {
      retry: {
        onRetry: (info) =>
          warn(
            `${info.error.message}; retrying in ${Math.ceil(info.delayMs / 1000)} s (attempt ${info.attempt + 1} of ${info.maxAttempts})`,
          ),
      },
    });
  const redactor = createRedactor();
  const redact = (text: string) => redactor.redact(text).text;
  const instructions = await loadInstructions({
    workspaceRoot: root,
    userInstructionsFile: userInstructionsPath(env),
    redact,
  });
  instructions.warnings.forEach(warn);
  return {
    workspaceRoot: root,
    env,
    config,
    paths,
    warn,
    loaded,
    recording,
    ref: withConfiguredFacts(parseModelId(modelId), config.models),
    createClient,
    redact,
    instructions: instructions.files,
  };
}

/** What a command decides about its session; everything else comes from the prepared command, alike for both. */
export interface AgentSessionChoices {
  client: ModelClient;
  mode: SafetyMode;
  /** false: nothing is saved (`oy run --no-session`, a replay). */
  isSaved?: boolean;
  /** Someone who can approve a workspace `.mcp.json` (oy chat); without it, only one approved earlier is used. */
  approveProjectFile?: (servers: readonly string[]) => Promise<boolean>;
}

/** The options of a command's AgentSession, and `close()` for the MCP servers started for it. */
export interface OpenedAgentSession {
  options: AgentSessionOptions;
  close(): Promise<void>;
}

/**
 * Starts the run's MCP servers and builds the AgentSession's options: the one place `oy run` and
 * `oy chat` get them from, so the two cannot drift (workspace, state, environment, rules, agent
 * settings, instructions, redactor, hooks, MCP tools, the session to continue).
 */
export async function openAgentSession(
  prepared: PreparedAgentCommand,
  choices: AgentSessionChoices,
): Promise<OpenedAgentSession> {
  const { workspaceRoot, env, config, paths, loaded, redact } = prepared;
  const mcp = await openMcpTools({
    userServers: config.mcpServers,
    stateDir: paths.stateDir,
    workspaceRoot,
    baseEnv: env,
    allowedEnvNames: config.agent.allowEnv,
    launch: {
      sandbox: {
        setting: config.agent.sandbox,
        allowNetwork: config.agent.network,
        homePaths: config.agent.homePaths ?? [],
      },
      workspaceAccess: choices.mode === 'plan' ? 'read-only' : 'read-write',
    },
    redact,
    warn: prepared.warn,
    ...(choices.approveProjectFile ? { approveProjectFile: choices.approveProjectFile } : {}),
  });
  const options: AgentSessionOptions = {
    workspaceRoot,
    stateDir: paths.stateDir,
    env,
    client: choices.client,
    mode: choices.mode,
    permissions: config.permissions,
    agent: config.agent,
    instructions: prepared.instructions,
    redact,
    oyVersion: OY_VERSION,
    ...(choices.isSaved === undefined ? {} : { isSaved: choices.isSaved }),
    ...(loaded ? { loaded } : {}),
    hooks: config.hooks,
    extraTools: mcp.tools,
  };
  return { options, close: () => mcp.close() };
}
