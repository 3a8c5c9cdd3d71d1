import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox } from '../../../src/agent/shell/sandbox.js';
import { bashTool } from '../../../src/agent/tools/bash-tool.js';
import type { ShellSettings } from '../../../src/agent/tools/tool-types.js';
import { makeToolContext, type TestToolContextOptions } from './make-tool-context.js';

const PATH = process.env.PATH ?? '/usr/bin:/bin';

function setup(shell: Partial<ShellSettings> = {}, options: TestToolContextOptions = {}) {
  const root = mkdtempSync(path.join(tmpdir(), 'oy-bash-tool-'));
  const context = makeToolContext(root, {
    ...options,
    overrides: {
      shell: {
        sandbox: 'off',
        allowedEnvNames: [],
        baseEnv: { PATH, HOME: process.env.HOME },
        allowNetwork: false,
        ...shell,
      },
      ...options.overrides,
    },
  });
  return { root, context };
}

async function call(args: unknown, context: ReturnType<typeof setup>['context']) {
  const result = await bashTool.run(args, context);
  return { ...result, json: JSON.parse(result.content) as Record<string, unknown> };
}

describe('bash tool', () => {
  it('runs the command in the workspace and returns the result fields', async () => {
    const { root, context } = setup();
    const result = await call({ command: 'pwd; echo oops >&2; exit 3' }, context);
    expect(result.json).toMatchObject({
      ok: true,
      exit_code: 3,
      signal: null,
      timed_out: false,
      stdout: `${realpathSync(root)}\n`,
      stderr: 'oops\n',
      stdout_truncated: false,
      stderr_truncated: false,
      sandboxed: false,
    });
    expect(typeof result.json.duration_ms).toBe('number');
    expect(context.checkpointCalls).toEqual(['command']);
  });

  it('asks the policy with the command and previews cwd, timeout and sandbox', async () => {
    const { root, context } = setup();
    await call({ command: 'true', timeout_seconds: 5 }, context);
    const [request] = context.approvals;
    expect(request?.action).toEqual({ kind: 'bash', tool: 'bash', command: 'true' });
    expect(request?.preview).toBe(
      `$ true\ncwd: ${root}\ntimeout: 5 s\nsandbox: none (sandbox: off in the config)`,
    );
  });

  it('runs nothing when the policy denies it', async () => {
    const { root, context } = setup({}, { mode: 'ask', isInteractive: false });
    const result = await call({ command: 'touch made' }, context);
    expect(result.ok).toBe(false);
    expect(result.denied).toBeDefined();
    expect(existsSync(path.join(root, 'made'))).toBe(false);
    expect(context.checkpointCalls).toEqual([]);
  });

  it('scrubs credentials and pins git settings, letting allowed names through', async () => {
    const { context } = setup({
      baseEnv: { PATH, ANTHROPIC_API_KEY: 'sk-ant-zzz', MY_TOKEN: 'mine', DEPLOY_TOKEN: 'hidden' },
      allowedEnvNames: ['MY_TOKEN'],
    });
    const result = await call(
      {
        command:
          'printf "%s|%s|%s|%s" "$ANTHROPIC_API_KEY" "$MY_TOKEN" "$DEPLOY_TOKEN" "$GIT_TERMINAL_PROMPT"',
      },
      context,
    );
    expect(result.json.stdout).toBe('|mine||0');
  });

  it('kills a command at its timeout', async () => {
    const { context } = setup();
    const result = await call({ command: 'sleep 30', timeout_seconds: 1 }, context);
    expect(result.json).toMatchObject({ ok: true, timed_out: true, signal: 'SIGTERM' });
  });

  it.each([
    [{ command: '' }, 'command'],
    [{ command: 'x'.repeat(32_001) }, 'command'],
    [{ command: 'true', timeout_seconds: 0 }, 'timeout_seconds'],
    [{ command: 'true', timeout_seconds: 601 }, 'timeout_seconds'],
    [{ command: 'true', timeout_seconds: 1.5 }, 'timeout_seconds'],
    [{ command: 'true', cwd: '/' }, 'cwd'],
  ])('refuses invalid arguments %#', async (args, field) => {
    const { context } = setup();
    const result = await call(args, context);
    expect(result.ok).toBe(false);
    expect(String(result.json.error)).toMatch(/^invalid arguments/);
    expect(String(result.json.error)).toContain(field === 'cwd' ? 'cwd' : field);
    expect(context.approvals).toEqual([]);
  });

  it('refuses every command when sandbox is on and bwrap is unavailable', async () => {
    const { root, context } = setup({ sandbox: 'on', baseEnv: { PATH: '/nonexistent' } });
    const result = await call({ command: 'touch made' }, context);
    expect(result.json).toEqual({
      ok: false,
      error: 'sandbox: on but bwrap is unavailable: bwrap not found on PATH',
    });
    expect(existsSync(path.join(root, 'made'))).toBe(false);
  });

  it('runs sandboxed with sandbox: auto where bwrap works', async () => {
    const probe = await probeSandbox({ PATH });
    const { context } = setup({ sandbox: 'auto' });
    const result = await call({ command: 'echo hi' }, context);
    expect(result.json).toMatchObject({ ok: true, stdout: 'hi\n', sandboxed: probe.available });
    expect(context.approvals[0]?.preview).toContain(
      probe.available ? 'sandbox: bwrap' : 'sandbox: none',
    );
  });

  it('describes its limits to the model', () => {
    expect(bashTool.description).toMatch(/stdin is closed/);
    expect(bashTool.description).toMatch(/200 KB/);
    expect(bashTool.inputSchema).toMatchObject({
      type: 'object',
      required: ['command'],
      properties: { timeout_seconds: { default: 120, minimum: 1, maximum: 600 } },
    });
  });
});
