import { z } from 'zod';
import { MAX_STREAM_BYTES } from '../shell/capture-output.js';
import { buildChildEnvironment } from '../shell/child-environment.js';
import { runSupervised } from '../shell/run-supervised.js';
import {
  describeSandboxPlan,
  planSandbox,
  refreshSandboxPlan,
  reviewSandboxRun,
  sandboxScopeOf,
  type SandboxPlan,
} from '../shell/sandbox.js';
import { defineTool } from './define-tool.js';
import { ToolFailure } from './tool-types.js';

/** Linux caps one argument at 128 KiB; 32,000 characters fit even at four UTF-8 bytes each. */
const MAX_COMMAND_CHARS = 32_000;
const DEFAULT_TIMEOUT_SECONDS = 120;
const MAX_TIMEOUT_SECONDS = 600;

const schema = z
  .object({
    command: z.string().min(1).max(MAX_COMMAND_CHARS).describe('The bash command line to run.'),
    timeout_seconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_TIMEOUT_SECONDS)
      .default(DEFAULT_TIMEOUT_SECONDS)
      .describe(`Seconds before the command is killed (default ${DEFAULT_TIMEOUT_SECONDS}).`),
  })
  .strict();

const KB = MAX_STREAM_BYTES / 1024;

/** Runs a shell command in the workspace, supervised, scrubbed and (where bwrap works) sandboxed. */
export const bashTool = defineTool({
  name: 'bash',
  kind: 'bash',
  description:
    `Run a command with \`bash -c\` in the workspace root. stdin is closed: no interactive ` +
    `commands, prompts or pagers. Killed after timeout_seconds (default ` +
    `${DEFAULT_TIMEOUT_SECONDS}, max ${MAX_TIMEOUT_SECONDS}); background processes are killed ` +
    `when the command exits, so nothing keeps running. stdout and stderr are kept up to ` +
    `${KB} KB each (head and tail). Only a core environment is passed (no credentials); git hooks ` +
    `do not run. May be sandboxed: the filesystem read-only except the workspace and a private ` +
    `/tmp, an empty home with toolchains read-only, the repository's git config and hooks ` +
    `read-only, secret-bearing files unreadable, no network. Returns exit_code, signal, ` +
    `timed_out, stdout, stderr, duration_ms.`,
  schema,
  // Both streams at their cap, plus JSON escapes and the other fields.
  maxResultChars: 450_000,
  intend(args) {
    return { action: { kind: 'bash', tool: 'bash', command: args.command }, target: undefined };
  },
  async plan(args, context) {
    const sandbox = await planSandbox(
      context.shell.sandbox,
      context.workspaceRoot,
      context.shell.baseEnv,
      context.shell.allowNetwork,
      sandboxScopeOf(context.shell, 'read-write'),
      // Laid out in execute, just before the command starts: files change while the user reads.
      false,
    ).catch((error: unknown) => {
      throw new ToolFailure(`the sandbox could not be prepared: ${(error as Error).message}`);
    });
    if (sandbox.kind === 'unavailable') throw new ToolFailure(sandbox.reason);
    const preview = [
      `$ ${args.command}`,
      `cwd: ${context.workspaceRoot}`,
      `timeout: ${args.timeout_seconds} s`,
      `sandbox: ${describeSandboxPlan(sandbox)}`,
    ].join('\n');
    return { preview, data: sandbox };
  },
  async execute(args, context, planned: SandboxPlan) {
    await context.checkpoints.beforeCommand();
    const { baseEnv } = context.shell;
    const sandbox = await refreshSandboxPlan(planned, context.workspaceRoot, baseEnv).catch(
      (error: unknown) => {
        throw new ToolFailure(`the sandbox could not be prepared: ${(error as Error).message}`);
      },
    );
    const env = buildChildEnvironment(baseEnv, {
      allowedNames: context.shell.allowedEnvNames,
      gitSettings: sandbox.kind === 'bwrap' ? sandbox.gitSettings : [],
    });
    const result = await runSupervised({
      command: args.command,
      cwd: context.workspaceRoot,
      timeoutMs: args.timeout_seconds * 1000,
      env,
      sandbox,
      signal: context.signal,
    });
    const notices = await reviewSandboxRun(sandbox, context.workspaceRoot, baseEnv);
    return {
      ...result,
      ...(notices.length === 0 ? {} : { notices }),
      ...(context.signal.aborted ? { cancelled: true } : {}),
    };
  },
});
