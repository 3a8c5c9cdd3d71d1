import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox } from '../../../src/agent/shell/sandbox.js';
import { bashTool } from '../../../src/agent/tools/bash-tool.js';
import type { ShellSettings } from '../../../src/agent/tools/tool-types.js';
import { makeToolContext } from '../../agent/tools/make-tool-context.js';

/**
 * The containment suite (SECURITY.md "What the sandbox shows, and what runs outside it"): every
 * case plants a canary, runs what an attacker would through oy's real parts, and checks the canary
 * did not fire; each part has a control showing the same attack fires without the containment.
 */

export const probe = await probeSandbox(process.env);

/** A folder under /var/tmp: the sandbox's private /tmp would hide one under /tmp by itself. */
export function makeFolder(prefix: string): string {
  return realpathSync(mkdtempSync(path.join('/var/tmp', prefix)));
}

export interface ContainmentCase {
  name: string;
  check: () => Promise<void> | void;
}

/**
 * Registers one part of the suite, printing its case count. Without a working bwrap it is skipped
 * with the reason, except in CI (or with OY_REQUIRE_SANDBOX=1), where that is a failure: the suite
 * must never pass by not running.
 */
export function describeContainment(
  part: string,
  cases: readonly ContainmentCase[],
  timeoutMs = 60_000,
): void {
  if (!probe.available) {
    const isRequired = Boolean(process.env.CI) || process.env.OY_REQUIRE_SANDBOX === '1';
    describe(`containment suite (${part})`, () => {
      if (isRequired)
        it('needs a working bwrap here', () => {
          throw new Error(`bwrap does not work on this machine: ${probe.reason}`);
        });
      else it.skip(`skipped: bwrap does not work on this machine (${probe.reason})`, () => {});
    });
    return;
  }
  describe(`containment suite (${part})`, () => {
    it.each(cases)('$name', async ({ check }) => check(), timeoutMs);
    it('counts its cases', () => {
      console.log(`containment suite (${part}): ${cases.length} cases`);
      expect(cases.length).toBeGreaterThan(0);
    });
  });
}

/** The environment oy would be started with: a test HOME, PATH, and whatever the case adds. */
export function userEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', ...extra };
}

/** Runs one command through the real bash tool, sandbox on, in `mode`; its parsed result. */
export async function runBash(
  workspace: string,
  command: string,
  shell: Partial<ShellSettings> & { baseEnv: ShellSettings['baseEnv'] },
  mode: 'auto' | 'edit' = 'auto',
): Promise<Record<string, unknown>> {
  const context = makeToolContext(workspace, {
    mode,
    ...(mode === 'edit' ? { allow: ['Bash(*)'] } : {}),
    overrides: {
      shell: { sandbox: 'on', allowedEnvNames: [], allowNetwork: false, ...shell },
    },
  });
  const result = await bashTool.run({ command, timeout_seconds: 120 }, context);
  return JSON.parse(result.content) as Record<string, unknown>;
}

/** Plain git as the user runs it in a terminal: their environment, no hardening. */
export function userGit(cwd: string, env: Record<string, string>, ...args: string[]): string {
  const run = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...env,
      GIT_AUTHOR_NAME: 'User',
      GIT_AUTHOR_EMAIL: 'user@example.com',
      GIT_COMMITTER_NAME: 'User',
      GIT_COMMITTER_EMAIL: 'user@example.com',
    },
    timeout: 60_000,
  });
  return `${run.stdout}${run.stderr}`;
}

/** git for building fixtures: plain, identity set, failures thrown. */
export function fixtureGit(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=Fixture', '-c', 'user.email=f@example.com', ...args],
    {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GIT_PAGER: 'cat' },
    },
  );
}
