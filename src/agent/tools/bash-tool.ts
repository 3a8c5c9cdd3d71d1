import { z } from 'zod';
import { hardenGitEnvironment } from '../shell/git-hardening.js';
import { MAX_STREAM_BYTES } from '../shell/capture-output.js';
import { runSupervised } from '../shell/run-supervised.js';
import {
  describeSandboxPlan,
  planSandbox,
  refreshSandboxPlan,
  type SandboxPlan,
} from '../shell/sandbox.js';
import { scrubEnvironment } from '../shell/scrub-environment.js';
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
    `${KB} KB each (head and tail). Credentials are removed from the environment; git hooks ` +
    `do not run. May be sandboxed: the filesystem read-only except the workspace and a private ` +
    `/tmp, no network. Returns exit_code, signal, timed_out, stdout, stderr, duration_ms.`,
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
    );
    if (sandbox.kind === 'unavailable') throw new ToolFailure(sandbox.reason);
    const preview = [
      `$ ${args.command}`,
      `cwd: ${context.workspaceRoot}`,
      `timeout: ${args.timeout_seconds} s`,
      `sandbox: ${describeSandboxPlan(sandbox)}`,
    ].join('\n');
    return { preview, data: sandbox };
  },
  async execute(args, context, sandbox: SandboxPlan) {
    await context.checkpoints.beforeCommand();
    const env = hardenGitEnvironment(
      scrubEnvironment(context.shell.baseEnv, context.shell.allowedEnvNames),
    );
    const result = await runSupervised({
      command: args.command,
      cwd: context.workspaceRoot,
      timeoutMs: args.timeout_seconds * 1000,
      env,
      sandbox: refreshSandboxPlan(sandbox, context.workspaceRoot, context.shell.baseEnv),
      signal: context.signal,
    });
    return { ...result, ...(context.signal.aborted ? { cancelled: true } : {}) };
  },
});
