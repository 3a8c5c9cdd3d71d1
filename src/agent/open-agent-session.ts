import type { OyConfig } from '../config/config-schema.js';
import { createModelClient } from '../providers/create-model-client.js';
import { withConfiguredFacts } from '../providers/model-facts/configured-models.js';
import { parseModelId } from '../providers/model-id/parse-model-id.js';
import type { ModelClient, ModelRef } from '../providers/types.js';
import type { SafetyMode } from '../safety/policy/safety-mode.js';
import { createRedactor } from '../safety/redact/index.js';
import { UsageError } from '../shared/errors.js';
import { OY_VERSION } from '../shared/version.js';
import { AgentSession, type TurnOptions } from './agent-session.js';
import type { AgentEvent } from './events.js';
import { openMcpTools } from './mcp/open-mcp-tools.js';
import { loadInstructions } from './prompt/load-instructions.js';
import { userInstructionsPath } from './prompt/user-instructions-path.js';
import { loadRecording } from './replay/load-recording.js';
import { ReplayModelClient } from './replay/replay-model-client.js';
import { replayTurns } from './replay/replay-turns.js';
import { loadSession, type SessionSummary } from './session/session-store.js';

export interface OpenAgentOptions {
  /** The command that opens it (`oy run`), for the error that names no model. */
  command: string;
  workspaceRoot: string;
  stateDir: string;
  /** The caller's environment: provider keys, and the base of the scrubbed command environment. */
  env: NodeJS.ProcessEnv;
  config: OyConfig;
  mode: SafetyMode;
  /** `--continue`, `--resume`: the saved session to continue (`latest`, a number, an id or a name). */
  resume?: string | null;
  /** `--replay`: the saved session whose recorded answers answer every model call. */
  replay?: string | null;
  /** false: nothing is saved (`oy run --no-session`, a replay). */
  isSaved?: boolean;
  /** Warnings (instruction files, MCP servers, a provider's retries), one line each. */
  warn(line: string): void;
  /** Checked once the model is known, before a server starts (`oy run` refuses a cap it cannot price). */
  checkModel?(ref: ModelRef): void;
  /** Someone who can approve a workspace `.mcp.json` (oy chat); without it, only one approved earlier is used. */
  approveProjectFile?: (servers: readonly string[]) => Promise<boolean>;
}

/** A recording that `--replay` named: `run` plays its turns again, each model call answered from it. */
export interface OpenedReplay {
  summary: SessionSummary;
  run(turn: TurnOptions): AsyncGenerator<AgentEvent, void>;
}

export interface OpenedAgent {
  session: AgentSession;
  /** A client for another model, with the same retry warnings (chat's /model). */
  createClient(ref: ModelRef): Promise<ModelClient>;
  replay: OpenedReplay | undefined;
  /** Stops the MCP servers and deletes the checkpoints' spilled copies; call once, at the end. */
  close(): Promise<void>;
}

/**
 * The one way into the agent, for `oy run` and `oy chat` alike: the session to continue or the
 * recording to replay, the model (the config's, which flags and environment fill, else the continued
 * session's; a replay's is the recorded one), the redactor every text passes, the instruction files,
 * the MCP servers' tools, and the started AgentSession.
 */
export async function openAgentSession(options: OpenAgentOptions): Promise<OpenedAgent> {
  const { workspaceRoot, stateDir, env, config, warn } = options;
  const resume = options.resume ?? null;
  const replay = options.replay ?? null;
  const loaded = resume === null ? undefined : await loadSession(stateDir, workspaceRoot, resume);
  const recording =
    replay === null ? undefined : await loadRecording(stateDir, workspaceRoot, replay);
  const modelId = recording?.summary.model ?? config.model ?? loaded?.summary.model ?? null;
  if (modelId === null) {
    throw new UsageError(`no model configured, and ${options.command} needs one`, {
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
    workspaceRoot,
    userInstructionsFile: userInstructionsPath(env),
    redact,
  });
  instructions.warnings.forEach(warn);
  const ref = withConfiguredFacts(parseModelId(modelId), config.models);
  options.checkModel?.(ref);
  // A replay answers from the recording: no provider is loaded, no key is read, nothing is sent.
  const replayClient = recording ? new ReplayModelClient(ref) : undefined;
  const client = replayClient ?? (await createClient(ref));
  const mcp = await openMcpTools({
    userServers: config.mcpServers,
    stateDir,
    workspaceRoot,
    baseEnv: env,
    allowedEnvNames: config.agent.allowEnv,
    launch: {
      sandbox: {
        setting: config.agent.sandbox,
        allowNetwork: config.agent.network,
        homePaths: config.agent.homePaths ?? [],
      },
      workspaceAccess: options.mode === 'plan' ? 'read-only' : 'read-write',
    },
    redact,
    warn,
    ...(options.approveProjectFile ? { approveProjectFile: options.approveProjectFile } : {}),
  });
  const session = new AgentSession({
    workspaceRoot,
    stateDir,
    env,
    client,
    mode: options.mode,
    permissions: config.permissions,
    agent: config.agent,
    instructions: instructions.files,
    redact,
    oyVersion: OY_VERSION,
    ...(options.isSaved === undefined ? {} : { isSaved: options.isSaved }),
    ...(loaded ? { loaded } : {}),
    hooks: config.hooks,
    extraTools: mcp.tools,
  });
  const close = async () => {
    try {
      await mcp.close();
    } finally {
      await session.dispose();
    }
  };
  try {
    await session.start();
  } catch (error) {
    await close();
    throw error;
  }
  const replayRun: OpenedReplay | undefined =
    recording && replayClient
      ? {
          summary: recording.summary,
          run: (turn: TurnOptions) => replayTurns(session, replayClient, recording.turns, turn),
        }
      : undefined;
  return { session, createClient, replay: replayRun, close };
}
