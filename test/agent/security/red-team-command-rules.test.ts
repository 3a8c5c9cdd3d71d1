import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../../src/agent/tools/bash-tool.js';
import { commitAll } from '../../support/git-fixture.js';
import { makeToolContext } from '../tools/make-tool-context.js';

/**
 * Red-team forms that got past `Bash(rm:*)` and `Bash(git push:*)` in auto mode: a bash builtin that
 * renames a program, git config given through the environment (`GIT_CONFIG_*`), and git config on the
 * command line that names a program to run (`core.fsmonitor`). Each is first run without the rules to
 * show it really deletes or pushes; with the rules, the canary must stay.
 */

const DENY = ['Bash(rm:*)', 'Bash(git push:*)'];
const PATH = process.env.PATH ?? '/usr/bin:/bin';
const RM = realpathSync(execFileSync('sh', ['-c', 'command -v rm'], { encoding: 'utf8' }).trim());

const RM_ATTACKS = [
  `hash -p ${RM} r; r victim.txt`,
  'shopt -s expand_aliases; alias r=rm\nr victim.txt',
  "git -c core.fsmonitor='rm victim.txt' status",
  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0='!rm victim.txt' git p",
  `env GIT_CONFIG_PARAMETERS="'alias.p'='!rm victim.txt'" git p`,
  "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0='!rm victim.txt'; git p",
  "PS4='$(rm victim.txt)'; set -x; true",
];
const PUSH_ATTACKS = [
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0=push git p -q origin main',
];

let sandbox: string;
let cases = 0;

beforeAll(() => {
  sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-red-team-rules-')));
});
afterAll(() => {
  rmSync(sandbox, { recursive: true, force: true });
  console.log(`red team command rules: ${cases} cases`);
});

function makeWorkspace(): { root: string; remote: string } {
  const base = path.join(sandbox, randomBytes(6).toString('hex'));
  const root = path.join(base, 'work');
  const remote = path.join(base, 'remote.git');
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'victim.txt'), `${randomBytes(8).toString('hex')}\n`);
  commitAll(root);
  execFileSync('git', ['init', '-q', '--bare', remote]);
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: root });
  return { root, remote };
}

function isPushed(remote: string): boolean {
  try {
    execFileSync('git', ['--git-dir', remote, 'rev-parse', '-q', '--verify', 'refs/heads/main'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

async function runBash(root: string, deny: string[], command: string) {
  const context = makeToolContext(root, {
    mode: 'auto',
    isInteractive: false,
    allow: [],
    deny,
    overrides: {
      shell: { sandbox: 'off', allowedEnvNames: [], baseEnv: { PATH, HOME: root }, allowNetwork: false }, // prettier-ignore
    },
  });
  const result = await bashTool.run({ command, timeout_seconds: 20 }, context);
  return { ok: result.ok, content: result.content };
}

describe('renamed programs and git config from the environment', () => {
  for (const [kind, attacks] of [
    ['rm', RM_ATTACKS],
    ['push', PUSH_ATTACKS],
  ] as const) {
    for (const command of attacks) {
      it(`refuses ${JSON.stringify(command)} in auto with the deny rules`, async () => {
        cases += 1;
        const hasFired = (workspace: { root: string; remote: string }) =>
          kind === 'rm' ? !existsSync(path.join(workspace.root, 'victim.txt')) : isPushed(workspace.remote); // prettier-ignore
        const control = makeWorkspace();
        const ran = await runBash(control.root, [], command);
        expect(hasFired(control), `control did not fire: ${ran.content}`).toBe(true);
        const workspace = makeWorkspace();
        const result = await runBash(workspace.root, DENY, command);
        expect(hasFired(workspace), result.content).toBe(false);
        expect(result.ok).toBe(false);
      });
    }
  }

  it('still runs plain git config and variables next to the deny rules', async () => {
    cases += 1;
    const { root } = makeWorkspace();
    const result = await runBash(root, DENY, 'export FOO=1; git -c color.ui=never status');
    expect(result.ok, result.content).toBe(true);
    expect(result.content).toContain('On branch main');
  });
});
