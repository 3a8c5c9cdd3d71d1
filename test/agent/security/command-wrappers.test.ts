import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../../src/agent/tools/bash-tool.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';
import { commitAll } from '../../support/git-fixture.js';
import { makeToolContext } from '../tools/make-tool-context.js';

/**
 * Wrapper and option forms through the real bash tool (SECURITY.md "Command rules see through wrappers"): with `Bash(rm:*)` and
 * `Bash(git push:*)` denied, each form must leave its canary alone (a file still there, a remote
 * with no pushed branch), in auto mode and in edit mode with `Bash(*)` allowed. Each form is first
 * run with no deny rule, to show it really deletes or pushes, so the refusals can fail.
 */

const DENY = ['Bash(rm:*)', 'Bash(git push:*)'];
const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** Commands that delete victim.txt. */
const RM_ATTACKS = [
  "sh -c 'rm victim.txt'",
  "bash -c 'cd . && rm victim.txt'",
  'eval rm victim.txt',
  'ionice rm victim.txt',
  'ionice -c 3 rm victim.txt',
  'flock lockfile rm victim.txt',
  "flock lockfile -c 'rm victim.txt'",
  'find . -name victim.txt -delete',
  'find . -name victim.txt -exec rm {} +',
  "script -qc 'rm victim.txt' /dev/null",
  'env FOO=1 rm victim.txt',
  'nice -n 5 rm victim.txt',
  'timeout 5 rm victim.txt',
  'xargs rm <<< victim.txt',
  '/bin/rm victim.txt',
  '\\rm victim.txt',
  "r''m victim.txt",
  'stdbuf -o0 setsid -w rm victim.txt',
  'command rm victim.txt',
  'exec rm victim.txt',
  'echo rm victim.txt | sh',
  'taskset -c 0 chrt -o 0 rm victim.txt',
];

/** Commands that push main to the bare remote. */
const PUSH_ATTACKS = [
  'git -C . push -q origin main',
  'git --no-pager push -q origin main',
  'git -c k.v=1 push -q origin main',
  "bash -c 'git push -q origin main'",
  'eval git push -q origin main',
  'env GIT_TRACE=0 git push -q origin main',
  "sh -c 'git -C . push -q origin main'",
  'find . -maxdepth 0 -exec git push -q origin main \\;',
];

interface Setup {
  label: string;
  mode: SafetyMode;
  allow: string[];
  deny: string[];
}

const REFUSING: Setup[] = [
  { label: 'auto', mode: 'auto', allow: [], deny: DENY },
  { label: 'edit with Bash(*) allowed', mode: 'edit', allow: ['Bash(*)'], deny: DENY },
];
const WITHOUT_RULES: Setup = { label: 'auto without deny rules', mode: 'auto', allow: [], deny: [] }; // prettier-ignore

let sandbox: string;
let cases = 0;

beforeAll(() => {
  sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-wrappers-')));
});
afterAll(() => {
  rmSync(sandbox, { recursive: true, force: true });
  console.log(`command wrappers (bash tool): ${cases} cases`);
});

/** A committed repository with victim.txt and a bare remote called origin that has no branch yet. */
function makeWorkspace(): { root: string; remote: string } {
  const base = path.join(sandbox, randomBytes(6).toString('hex'));
  const root = path.join(base, 'work');
  const remote = path.join(base, 'remote.git');
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'victim.txt'), `${randomBytes(8).toString('hex')}\n`);
  writeFileSync(path.join(root, 'Makefile'), 'all:\n\ttouch made.txt\n');
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

async function runBash(root: string, setup: Setup, command: string) {
  const context = makeToolContext(root, {
    mode: setup.mode,
    isInteractive: false,
    allow: setup.allow,
    deny: setup.deny,
    overrides: {
      shell: { sandbox: 'off', allowedEnvNames: [], baseEnv: { PATH, HOME: root }, allowNetwork: false }, // prettier-ignore
    },
  });
  const result = await bashTool.run({ command, timeout_seconds: 20 }, context);
  return { ok: result.ok, content: result.content };
}

describe('wrapper forms through the bash tool', () => {
  for (const [kind, attacks] of [
    ['rm', RM_ATTACKS],
    ['push', PUSH_ATTACKS],
  ] as const) {
    for (const command of attacks) {
      it(`refuses ${JSON.stringify(command)} in ${REFUSING.map((s) => s.label).join(' and ')}`, async () => {
        cases += 1;
        const hasFired = (workspace: { root: string; remote: string }) =>
          kind === 'rm' ? !existsSync(path.join(workspace.root, 'victim.txt')) : isPushed(workspace.remote); // prettier-ignore
        const control = makeWorkspace();
        const ran = await runBash(control.root, WITHOUT_RULES, command);
        expect(hasFired(control), `control did not fire: ${ran.content}`).toBe(true);
        for (const setup of REFUSING) {
          const workspace = makeWorkspace();
          const result = await runBash(workspace.root, setup, command);
          expect(hasFired(workspace), `${setup.label}: ${result.content}`).toBe(false);
          expect(result.ok).toBe(false);
          expect(result.content).toMatch(/deny rule Bash\((rm|git push):\*\)|cannot be checked with certainty/u); // prettier-ignore
        }
      });
    }
  }
});

describe('controls still run next to the deny rules', () => {
  const CONTROLS: [string, string[], (root: string, stdout: string) => boolean][] = [
    ['git -C . status', ['Bash(git:*)'], (_r, out) => out.includes('On branch main')],
    ['git --no-pager log --oneline', ['Bash(git:*)'], (_r, out) => out.includes('fixture')],
    ['find . -name victim.txt', ['Bash(find:*)'], (_r, out) => out.includes('./victim.txt')],
    ['nice -n 5 make', ['Bash(make:*)'], (root) => existsSync(path.join(root, 'made.txt'))],
    ['env FOO=1 make', ['Bash(FOO=1 make)'], (root) => existsSync(path.join(root, 'made.txt'))],
  ];
  for (const [command, allow, hasRun] of CONTROLS) {
    for (const setup of [REFUSING[0]!, { label: `edit with ${allow.join(', ')}`, mode: 'edit' as const, allow, deny: DENY }]) {
      it(`${setup.label}: runs ${JSON.stringify(command)}`, async () => {
        cases += 1;
        const { root } = makeWorkspace();
        const result = await runBash(root, setup, command);
        expect(result.ok, result.content).toBe(true);
        const stdout = String((JSON.parse(result.content) as { stdout?: unknown }).stdout ?? '');
        expect(hasRun(root, stdout), result.content).toBe(true);
        expect(existsSync(path.join(root, 'victim.txt'))).toBe(true);
      });
    }
  } // prettier-ignore
});
