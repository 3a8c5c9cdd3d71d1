import { openAgentSession, type DoneEvent } from '../../agent/index.js';
import { modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import { EXIT, UsageError } from '../../shared/errors.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { resolveWorkspaceRoot } from '../resolve-workspace-root.js';
import { exitCodeFor } from '../run/exit-code-for.js';
import { parseRunFlags, type RunFlags } from '../run/parse-run-flags.js';
import { loadAgentConfig } from '../run/load-agent-config.js';
import { readPrompt } from '../run/read-prompt.js';
import { createJsonRenderer, createTextRenderer } from '../run/render-run-events.js';
import { takeOverInterrupt } from '../run/take-over-interrupt.js';
import { resolveAnswerPath, writeAnswerFile } from '../run/write-answer-file.js';
import { createColors, shouldColor } from '../terminal.js';

export type { RunFlags } from '../run/parse-run-flags.js';

/** `oy run [prompt...]`: one non-interactive task; the answer on stdout, progress on stderr. */
export async function runRunCommand(words: string[], flags: RunFlags): Promise<void> {
  const env = process.env;
  const settings = parseRunFlags(flags);
  const root = resolveWorkspaceRoot(flags.cwd, env);
  // A bad --out is refused before any model call.
  if (settings.out !== null) resolveAnswerPath(root, settings.out);
  if (settings.replay !== null && words.length > 0)
    throw new UsageError('--replay takes its prompts from the recorded session; give no prompt', {
      hint: 'run `oy run --replay <session>` alone; `oy sessions` lists the sessions',
    });
  const prompt = settings.replay === null ? await readPrompt(words, process.stdin) : '';
  const { config, paths, warn } = await loadAgentConfig(root, flags);
  // No one can approve a workspace .mcp.json here: only one approved earlier is used.
  const opened = await openAgentSession({
    command: 'oy run',
    workspaceRoot: root,
    stateDir: paths.stateDir,
    env,
    config,
    mode: settings.mode,
    resume: settings.resume,
    replay: settings.replay,
    isSaved: settings.isSessionSaved,
    warn,
    checkModel: (ref) => {
      if (settings.maxCostUsd !== null && modelFactsFor(ref).price === undefined) {
        throw new UsageError(`--max-cost cannot be enforced: no price is known for ${ref.id}`, {
          hint: `give its price in the user config ("models": {"${ref.id}": {"price": {"input": <usd>, "output": <usd>}}}, USD per million tokens), or bound the run with --max-turns instead`,
        });
      }
    },
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
  let done: DoneEvent | undefined;
  try {
    // No interaction: nobody can answer, so an ask is refused and the ask tool is not offered.
    const turn = {
      signal: controller.signal,
      maxModelCalls: settings.maxTurns,
      maxCostUsd: settings.maxCostUsd,
    };
    const events = opened.replay ? opened.replay.run(turn) : opened.session.runTurn(prompt, turn);
    for await (const event of events) {
      renderer.render(event);
      if (event.type === 'done') done = event;
    }
  } finally {
    restoreInterrupt();
    // oy run has no undo: spilled copies of large files are not needed past the run.
    await opened.close();
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
