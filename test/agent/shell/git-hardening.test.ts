import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hardenGitEnvironment } from '../../../src/agent/shell/git-hardening.js';
import { runSupervised } from '../../../src/agent/shell/run-supervised.js';
import { buildChildEnvironment } from '../../../src/agent/shell/child-environment.js';

const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '' };

/** A repository whose own config and hooks would run scripts that leave canary files. */
function makeHostileRepository(): { root: string; canaries: Record<string, string> } {
  const root = mkdtempSync(path.join(tmpdir(), 'oy-git-hostile-'));
  const canaryDir = mkdtempSync(path.join(tmpdir(), 'oy-git-canaries-'));
  const canaries = {
    hook: path.join(canaryDir, 'hook-ran'),
    fsmonitor: path.join(canaryDir, 'fsmonitor-ran'),
    credential: path.join(canaryDir, 'credential-helper-ran'),
    ext: path.join(canaryDir, 'ext-ran'),
  };
  const script = (file: string, canary: string): string => {
    const scriptPath = path.join(canaryDir, file);
    writeFileSync(scriptPath, `#!/bin/sh\ntouch '${canary}'\n`);
    chmodSync(scriptPath, 0o755);
    return scriptPath;
  };
  const setup = [
    'git init -q',
    'git config user.email t@example.com',
    'git config user.name Test',
    `git config core.fsmonitor '${script('fsmonitor.sh', canaries.fsmonitor)}'`,
    `git config credential.helper '!${script('credential.sh', canaries.credential)}'`,
    'git config protocol.ext.allow always',
    `cp '${script('pre-commit', canaries.hook)}' .git/hooks/pre-commit`,
    'echo hello > file.txt',
  ].join(' && ');
  return { root, canaries: { ...canaries, setup } };
}

async function runIn(root: string, command: string, env: Record<string, string>) {
  return runSupervised({
    command,
    cwd: root,
    timeoutMs: 30_000,
    env,
    sandbox: { kind: 'none', reason: 'test' },
  });
}

const ATTEMPTS = [
  'git add -A && git commit -qm first',
  'git status --short',
  "printf 'protocol=https\\nhost=example.com\\n\\n' | git credential fill",
  `git ls-remote 'ext::sh -c touch% "$EXT_CANARY"'`,
].join('; ');

describe('hardenGitEnvironment', () => {
  it('stops hooks, fsmonitor, credential helpers and ext:: from running in a hostile repository', async () => {
    const { root, canaries } = makeHostileRepository();
    const setup = await runIn(root, canaries.setup!, baseEnv);
    expect(setup.exit_code, setup.stderr).toBe(0);
    const env = hardenGitEnvironment(buildChildEnvironment(baseEnv, { allowedNames: [] }));
    const result = await runIn(root, ATTEMPTS, { ...env, EXT_CANARY: canaries.ext! });
    const log = await runIn(root, 'git log --oneline | wc -l', env);
    expect(log.stdout.trim(), result.stderr).toBe('1');
    for (const name of ['hook', 'fsmonitor', 'credential', 'ext'])
      expect(existsSync(canaries[name]!), `${name} ran`).toBe(false);
  });

  it('the same repository does run them without the hardening (the test can fail)', async () => {
    const { root, canaries } = makeHostileRepository();
    await runIn(root, canaries.setup!, baseEnv);
    await runIn(root, ATTEMPTS, {
      ...baseEnv,
      GIT_TERMINAL_PROMPT: '0',
      EXT_CANARY: canaries.ext!,
    });
    for (const name of ['hook', 'fsmonitor', 'credential', 'ext'])
      expect(existsSync(canaries[name]!), `${name} did not run`).toBe(true);
  });

  it('appends its settings after config entries already in the environment', () => {
    const env = hardenGitEnvironment({
      PATH: '/bin',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_VALUE_0: 'Me',
    });
    expect(env).toMatchObject({
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_KEY_1: 'core.hooksPath',
      GIT_CONFIG_VALUE_1: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      PATH: '/bin',
    });
    expect(Number(env.GIT_CONFIG_COUNT)).toBeGreaterThan(3);
    expect(Object.values(env)).toContain('protocol.ext.allow');
    expect(Object.values(env)).toContain('core.fsmonitor');
  });
});
