import type { AgentEvent } from '../../agent/events.js';
import { createAgentState, runAgentLoop } from '../../agent/loop/run-agent-loop.js';
import { buildSystemPrompt } from '../../agent/prompt/build-system-prompt.js';
import { allTools, offeredTools } from '../../agent/tools/all-tools.js';
import { Checkpoints } from '../../agent/checkpoint/checkpoints.js';
import { openMcpTools } from '../../agent/mcp/open-mcp-tools.js';
import { compactIfNeeded } from '../../agent/compact/compact-if-needed.js';
import { contextWindowFor } from '../../agent/compact/context-window.js';
import {
  createSession,
  openSession,
  type LoadedSession,
} from '../../agent/session/session-store.js';
import type { SessionWriter } from '../../agent/session/session-types.js';
import { priceFor } from '../../providers/pricing/price-for.js';
import { resolveOutputPath } from '../../safety/paths/resolve-output-path.js';
import { parsePermissionRules } from '../../safety/policy/permission-rule.js';
import { EXIT, UsageError } from '../../shared/errors.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { OY_VERSION } from '../../shared/version.js';
import { resolveWorkspaceRoot } from '../resolve-workspace-root.js';
import { exitCodeFor } from '../run/exit-code-for.js';
import { parseRunFlags, type RunFlags } from '../run/parse-run-flags.js';
import { prepareAgentCommand } from '../run/prepare-agent-command.js';
import { readPrompt } from '../run/read-prompt.js';
import { createJsonRenderer, createTextRenderer } from '../run/render-run-events.js';
import { takeOverInterrupt } from '../run/take-over-interrupt.js';
import { writeAnswerFile } from '../run/write-answer-file.js';
import { createColors, shouldColor } from '../terminal.js';

export type { RunFlags } from '../run/parse-run-flags.js';

/** `oy run [prompt...]`: one non-interactive task; the answer on stdout, progress on stderr. */
export async function runRunCommand(words: string[], flags: RunFlags): Promise<void> {
  const env = process.env;
  const settings = parseRunFlags(flags);
  const root = resolveWorkspaceRoot(flags.cwd, env);
  // A bad --out is refused before any model call.
  if (settings.out !== null) resolveOutputPath(root, settings.out, '--out');
  const prompt = await readPrompt(words, process.stdin);
  const prepared = await prepareAgentCommand('oy run', root, settings.resume, flags);
  const { config, paths, loaded, ref, redact } = prepared;
  const rules = parsePermissionRules(config.permissions);
  if (settings.maxCostUsd !== null && priceFor(ref) === undefined) {
    throw new UsageError(`--max-cost cannot be enforced: no price is known for ${ref.id}`, {
      hint: `give its price in the user config ("models": {"${ref.id}": {"price": {"input": <usd>, "output": <usd>}}}, USD per million tokens), or bound the run with --max-turns instead`,
    });
  }
  const client = await prepared.createClient(ref);
  const session = await openOrCreateSession(
    settings.isSessionSaved,
    loaded,
    paths.stateDir,
    root,
    ref.id,
  );
  const state = createAgentState(loaded ?? {});
  const today = new Date().toISOString().slice(0, 10);

  // No one can approve a workspace .mcp.json here: only one approved earlier is used.
  const mcp = await openMcpTools({
    userServers: config.mcpServers,
    stateDir: paths.stateDir,
    workspaceRoot: root,
    baseEnv: env,
    allowedEnvNames: config.agent.allowEnv,
    redact,
    warn: prepared.warn,
  });
  const controller = new AbortController();
  const restoreInterrupt = takeOverInterrupt(controller, process.stderr, EXIT.interrupted);
  const renderer = flags.json
    ? createJsonRenderer(process.stdout)
    : createTextRenderer({
        stdout: process.stdout,
        stderr: process.stderr,
        colors: createColors(shouldColor(process.stderr, flags, env)),
        isQuiet: Boolean(flags.quiet),
      });
  const checkpoints = new Checkpoints({ workspaceRoot: root, env });
  let done: Extract<AgentEvent, { type: 'done' }> | undefined;
  try {
    for await (const event of runAgentLoop({
      client,
      system: (todos) =>
        buildSystemPrompt({
          mode: settings.mode,
          workspaceRoot: root,
          today,
          isInteractive: false,
          instructions: prepared.instructions,
          todos,
        }),
      prompt,
      state,
      tools: allTools(mcp.tools),
      offeredTools: offeredTools(settings.mode, false, mcp.tools),
      workspaceRoot: root,
      mode: settings.mode,
      rules,
      isInteractive: false,
      redact,
      shell: {
        sandbox: config.agent.sandbox,
        allowedEnvNames: config.agent.allowEnv,
        baseEnv: env,
        allowNetwork: config.agent.network,
      },
      checkpoints,
      hooks: config.hooks,
      ...(session ? { session } : {}),
      maxTurns: settings.maxTurns,
      maxCostUsd: settings.maxCostUsd,
      compaction: {
        contextWindow: contextWindowFor(ref, config.agent.contextWindow),
        compact: compactIfNeeded,
      },
      signal: controller.signal,
    })) {
      renderer.render(event);
      if (event.type === 'done') done = event;
    }
  } finally {
    restoreInterrupt();
    await mcp.close();
    // oy run has no /undo: spilled copies of large files are not needed past the run.
    await checkpoints.dispose();
  }
  if (done === undefined) throw new Error('the agent loop ended without a done event');
  const hasAnswer = done.stopReason !== 'error' && done.stopReason !== 'cancelled';
  if (settings.out !== null && hasAnswer) {
    const written = await writeAnswerFile(root, settings.out, done.answer);
    if (!flags.quiet && !flags.json)
      process.stderr.write(
        `answer written to ${neutralizeControl(written, { lineBreaks: 'show' })}\n`,
      );
  }
  process.exitCode = exitCodeFor(done.stopReason);
}

async function openOrCreateSession(
  isSaved: boolean,
  loaded: LoadedSession | undefined,
  stateDir: string,
  workspaceRoot: string,
  model: string,
): Promise<SessionWriter | undefined> {
  if (!isSaved) return undefined;
  if (loaded) return openSession(loaded);
  return createSession({ stateDir, workspaceRoot, model, oyVersion: OY_VERSION });
}
