import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_STREAM_BYTES } from '../../../src/agent/shell/capture-output.js';
import { runSupervised, type CommandResult } from '../../../src/agent/shell/run-supervised.js';
import type { SandboxPlan } from '../../../src/agent/shell/sandbox.js';
import { buildChildEnvironment } from '../../../src/agent/shell/child-environment.js';
import { isProcessRunning, waitFor } from '../shell/process-state.js';

// Security suite "shell supervisor" (SECURITY.md "Commands cannot outlive their timeout or read provider keys"): grandchildren past the timeout die,
// output is capped, provider keys are absent from the environment.

const NO_SANDBOX: SandboxPlan = { kind: 'none', reason: 'tested without the OS sandbox' };
const workspace = mkdtempSync(path.join(tmpdir(), 'oy-supervisor-'));
const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '' };
// The result may hold both streams at their cap plus the markers; nothing near 50 MB.
const MAX_RESULT_CHARS = 2 * MAX_STREAM_BYTES + 2_000;

function run(
  command: string,
  options: { timeoutMs?: number; env?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<CommandResult> {
  return runSupervised({
    command,
    cwd: workspace,
    timeoutMs: options.timeoutMs ?? 20_000,
    env: options.env ?? baseEnv,
    sandbox: NO_SANDBOX,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

function pidsIn(text: string): number[] {
  const pids = text.match(/\d+/g)?.map(Number) ?? [];
  expect(pids.length).toBeGreaterThan(0);
  return pids;
}

async function expectGone(pids: number[]): Promise<void> {
  for (const pid of pids) expect(isProcessRunning(pid), `pid ${pid} still running`).toBe(false);
}

const CREDENTIALS: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-canary-anthropic',
  OPENAI_API_KEY: 'sk-canary-openai',
  OPENROUTER_API_KEY: 'sk-or-canary',
  LOCAL_API_KEY: 'canary-local',
  AWS_ACCESS_KEY_ID: 'AKIACANARYCANARY0000',
  AWS_SECRET_ACCESS_KEY: 'canary-aws-secret',
  AWS_SESSION_TOKEN: 'canary-aws-session',
  GITHUB_TOKEN: 'ghp_canarycanarycanary',
  GH_TOKEN: 'gho_canarycanary',
  NPM_TOKEN: 'npm_canary',
  MY_SERVICE_TOKEN: 'canary-service-token',
  DB_PASSWORD: 'canary-db-password',
  STRIPE_SECRET_KEY: 'canary-stripe',
  GOOGLE_APPLICATION_CREDENTIALS: '/canary/gcp.json',
  AZURE_OPENAI_API_KEY: 'canary-azure',
  DOCKER_AUTH_CONFIG: '{"auths":{"canary":{}}}',
  DATABASE_URL: 'postgres://app:canary-url-password@db.internal/app',
  openai_api_key: 'canary-lowercase',
};

interface Case {
  name: string;
  check: () => Promise<void>;
}

const cases: Case[] = [
  {
    name: 'a grandchild sleeping past the timeout (output redirected) is gone after the call',
    async check() {
      const result = await run('sleep 30 >/dev/null 2>&1 & echo $!; sleep 30', { timeoutMs: 1500 });
      expect(result.timed_out).toBe(true);
      await expectGone(pidsIn(result.stdout));
    },
  },
  {
    name: 'a grandchild holding the output pipes past the timeout is gone after the call',
    async check() {
      const result = await run('sleep 30 & echo $!; sleep 30', { timeoutMs: 1500 });
      expect(result.timed_out).toBe(true);
      await expectGone(pidsIn(result.stdout));
    },
  },
  {
    name: 'a shell and grandchild that ignore SIGTERM get SIGKILL after the grace period',
    async check() {
      const result = await run(
        "trap '' TERM; sleep 30 >/dev/null 2>&1 & echo $!; while :; do sleep 1; done",
        { timeoutMs: 1500 },
      );
      expect(result).toMatchObject({ timed_out: true, exit_code: null, signal: 'SIGKILL' });
      await expectGone(pidsIn(result.stdout));
    },
  },
  {
    name: 'background processes left by a command that exits normally are killed',
    async check() {
      const result = await run('sleep 30 >/dev/null 2>&1 & echo $!');
      expect(result).toMatchObject({ exit_code: 0, timed_out: false });
      await expectGone(pidsIn(result.stdout));
    },
  },
  {
    name: 'a background process holding the pipes does not keep the call waiting',
    async check() {
      const result = await run('sleep 30 & echo $!');
      expect(result).toMatchObject({ exit_code: 0, timed_out: false });
      expect(result.duration_ms).toBeLessThan(20_000);
      await expectGone(pidsIn(result.stdout));
    },
  },
  {
    name: 'aborting the signal kills the whole group',
    async check() {
      const pidFile = path.join(workspace, `abort-${Date.now()}.pid`);
      const controller = new AbortController();
      const pending = run(`sleep 30 >/dev/null 2>&1 & echo $! > ${pidFile}; sleep 30`, {
        signal: controller.signal,
      });
      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes('\n'));
      controller.abort();
      const result = await pending;
      expect(result).toMatchObject({ timed_out: false, exit_code: null, signal: 'SIGTERM' });
      await expectGone(pidsIn(readFileSync(pidFile, 'utf8')));
    },
  },
  {
    name: 'an already-aborted signal starts nothing',
    async check() {
      const controller = new AbortController();
      controller.abort();
      const marker = path.join(workspace, 'never-started');
      await expect(run(`touch ${marker}`, { signal: controller.signal })).rejects.toThrow(
        /cancelled/,
      );
      expect(existsSync(marker)).toBe(false);
    },
  },
  {
    name: '50 MB on stdout is capped, head and tail kept',
    async check() {
      const result = await run("head -c 52428800 /dev/zero | tr '\\0' a; printf END");
      expect(result.stdout_truncated).toBe(true);
      expect(result.stdout.startsWith('a'.repeat(1000))).toBe(true);
      expect(result.stdout.endsWith('aEND')).toBe(true);
      expect(result.stdout).toMatch(/bytes of output cut; 52428803 in all/);
      expect(result.stdout.length).toBeLessThanOrEqual(MAX_STREAM_BYTES + 200);
      expect(JSON.stringify(result).length).toBeLessThan(MAX_RESULT_CHARS);
    },
  },
  {
    name: '50 MB on stderr is capped',
    async check() {
      const result = await run("head -c 52428800 /dev/zero | tr '\\0' b >&2");
      expect(result).toMatchObject({ stderr_truncated: true, stdout_truncated: false, stdout: '' });
      expect(result.stderr.length).toBeLessThanOrEqual(MAX_STREAM_BYTES + 200);
    },
  },
  {
    name: '50 MB on both streams at once is capped on both',
    async check() {
      const result = await run(
        "head -c 52428800 /dev/zero | tr '\\0' c & head -c 52428800 /dev/zero | tr '\\0' d >&2; wait",
      );
      expect(result.stdout_truncated && result.stderr_truncated).toBe(true);
      expect(JSON.stringify(result).length).toBeLessThan(MAX_RESULT_CHARS);
    },
  },
  {
    name: 'output just under the cap is kept whole',
    async check() {
      const result = await run(`head -c ${MAX_STREAM_BYTES} /dev/zero | tr '\\0' e`);
      expect(result.stdout_truncated).toBe(false);
      expect(result.stdout).toBe('e'.repeat(MAX_STREAM_BYTES));
    },
  },
  ...Object.entries(CREDENTIALS).map(([name, value]) => ({
    name: `the scrubbed environment hides ${name}`,
    async check() {
      const env = buildChildEnvironment({ ...baseEnv, [name]: value }, { allowedNames: [] });
      const result = await run(`printf '%s' "$${name}"; env`, { env });
      expect(result.exit_code).toBe(0);
      expect(result.stdout).not.toContain(value);
      expect(result.stdout).toContain('PATH=');
    },
  })),
  {
    name: 'a credential allowed by name in the config is visible',
    async check() {
      const env = buildChildEnvironment(
        { ...baseEnv, ...CREDENTIALS },
        { allowedNames: ['MY_SERVICE_TOKEN'] },
      );
      const result = await run('printf "%s|%s" "$MY_SERVICE_TOKEN" "$ANTHROPIC_API_KEY"', { env });
      expect(result.stdout).toBe('canary-service-token|');
    },
  },
  {
    name: 'stdin is closed: cat returns at once with nothing',
    async check() {
      const result = await run('cat; read -r line; echo "read=$?"');
      expect(result).toMatchObject({ exit_code: 0, stdout: 'read=1\n', timed_out: false });
    },
  },
  {
    name: 'exit codes are reported',
    async check() {
      expect(await run('echo out; echo err >&2; exit 7')).toMatchObject({
        exit_code: 7,
        signal: null,
        stdout: 'out\n',
        stderr: 'err\n',
        timed_out: false,
        sandboxed: false,
      });
    },
  },
  {
    name: 'death by signal is reported',
    async check() {
      expect(await run('kill -KILL $$')).toMatchObject({ exit_code: null, signal: 'SIGKILL' });
    },
  },
  {
    name: 'the command runs in the workspace, UTF-8 intact',
    async check() {
      const result = await run("pwd; printf 'héllo ✓'");
      expect(result.stdout).toBe(`${realpathSync(workspace)}\nhéllo ✓`);
      expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    },
  },
  {
    name: 'a plan that refuses (sandbox: on without bwrap) runs nothing',
    async check() {
      const marker = path.join(workspace, 'refused');
      await expect(
        runSupervised({
          command: `touch ${marker}`,
          cwd: workspace,
          timeoutMs: 5_000,
          env: baseEnv,
          sandbox: { kind: 'unavailable', reason: 'sandbox: on but bwrap is unavailable: test' },
        }),
      ).rejects.toThrow('sandbox: on but bwrap is unavailable: test');
      expect(existsSync(marker)).toBe(false);
    },
  },
];

describe('shell supervisor suite', () => {
  it.each(cases)('$name', async ({ check }) => check(), 30_000);

  it('counts its cases', () => {
    console.log(`shell supervisor suite: ${cases.length} cases`);
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });
});
