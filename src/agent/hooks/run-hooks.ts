import {
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  type HookEntry,
  type HookEvent,
  type HookSettings,
} from '../../config/hooks-schema.js';
import { buildChildEnvironment } from '../shell/child-environment.js';
import { runSupervised } from '../shell/run-supervised.js';
import {
  planSandbox,
  reviewSandboxRun,
  sandboxScopeOf,
  type SandboxPlan,
} from '../shell/sandbox.js';
import type { ShellSettings } from '../tools/tool-types.js';

/** The exit code that blocks (Claude Code's convention): stderr is the reason. */
export const BLOCKING_EXIT_CODE = 2;
/** A hook's reason reaches the model or the user at most this long. */
const MAX_REASON_CHARS = 4000;

/** What the hooks of one event said: the first block's reason, and reports of hooks that failed. */
export interface HookOutcome {
  blocked?: string;
  reports: string[];
}

/** Runs the user's hooks of one event; the loop calls it at one place per event. */
export type HookRunner = (
  event: HookEvent,
  fields: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<HookOutcome>;

export interface HookRunnerOptions {
  hooks: HookSettings;
  workspaceRoot: string;
  sessionId: string | undefined;
  mode: string;
  shell: ShellSettings;
  redact(text: string): string;
}

/**
 * User hooks (the user config only): each matching command runs with `bash -c` in the workspace,
 * inside the sandbox bash uses (the workspace read-only in plan mode; `"sandbox": false` on the hook
 * runs it outside), with the child environment, the event as JSON on stdin, and its timeout. Exit 0
 * goes on, exit 2 blocks with stderr as the reason, anything else is reported and the run goes on.
 * Output is redacted.
 */
export function createHookRunner(options: HookRunnerOptions): HookRunner | undefined {
  const configured = Object.values(options.hooks).some((entries) => (entries ?? []).length > 0);
  if (!configured) return undefined;
  return async (event, fields, signal) => {
    const outcome: HookOutcome = { reports: [] };
    const toolName = typeof fields.tool_name === 'string' ? fields.tool_name : undefined;
    const entries = (options.hooks[event] ?? []).filter((entry) => matches(entry, toolName));
    const input = JSON.stringify({
      hook_event_name: event,
      session_id: options.sessionId ?? null,
      workspace: options.workspaceRoot,
      mode: options.mode,
      ...fields,
    });
    for (const entry of entries) {
      const seconds = entry.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS;
      const name = `${event} hook ${JSON.stringify(shorten(entry.command, 80))}`;
      try {
        const sandbox = await planHookSandbox(entry, options);
        const result = await runSupervised({
          command: entry.command,
          cwd: options.workspaceRoot,
          timeoutMs: seconds * 1000,
          env: buildChildEnvironment(options.shell.baseEnv, {
            allowedNames: options.shell.allowedEnvNames,
            gitSettings: sandbox.kind === 'bwrap' ? sandbox.gitSettings : [],
          }),
          sandbox,
          signal,
          input,
        });
        const notices = await reviewSandboxRun(
          sandbox,
          options.workspaceRoot,
          options.shell.baseEnv,
        );
        outcome.reports.push(...notices.map((notice) => `${name}: ${notice}`));
        const stderr = shorten(options.redact(result.stderr.trim()), MAX_REASON_CHARS);
        if (result.timed_out) outcome.reports.push(`${name} was stopped after ${seconds} s`);
        else if (result.exit_code === BLOCKING_EXIT_CODE) {
          outcome.blocked = stderr || `blocked by the ${name}`;
          return outcome;
        } else if (result.exit_code !== 0)
          outcome.reports.push(
            `${name} exited ${result.exit_code ?? result.signal ?? '?'}${stderr === '' ? '' : `: ${stderr}`}`,
          );
      } catch (error) {
        outcome.reports.push(`${name} could not run: ${options.redact(String(error))}`);
      }
    }
    return outcome;
  };
}

/** The bash tool's sandbox, under the mode's write rules; none for a hook the user marked unsandboxed. */
function planHookSandbox(entry: HookEntry, options: HookRunnerOptions): Promise<SandboxPlan> {
  if (entry.sandbox === false)
    return Promise.resolve({ kind: 'none', reason: 'the hook is marked "sandbox": false' });
  const { shell } = options;
  return planSandbox(
    shell.sandbox,
    options.workspaceRoot,
    shell.baseEnv,
    shell.allowNetwork,
    sandboxScopeOf(shell),
  );
}

function matches(entry: HookEntry, toolName: string | undefined): boolean {
  const matcher = entry.matcher ?? '';
  if (matcher === '' || matcher === '*' || toolName === undefined) return true;
  return new RegExp(`^(?:${matcher})$`, 'u').test(toolName);
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
