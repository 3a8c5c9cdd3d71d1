import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';

/**
 * `oy run --mode auto` and `--mode edit` with Bash(*) allowed, through the built CLI: a scripted model
 * tries wrapped forms of denied commands (`rm`, `git push`) and then a harmless control. The victim
 * file stays, the remote gets no branch, and the control runs.
 */
const MODEL = 'anthropic::claude-haiku-4-5';
const ATTACKS = [
  "sh -c 'rm victim.txt'",
  'find . -name victim.txt -delete',
  'eval rm victim.txt',
  'env FOO=1 git -C . push -q origin main',
  "bash -c 'git --no-pager push -q origin main'",
];
const CONTROL = 'git -C . status --short && touch control-ran.txt';

let fake: FakeProviderServer;
let workspace: string;
let remote: string;
let cases = 0;

beforeEach(async () => {
  fake = await startFakeProvider();
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-wrappers-cli-')));
  workspace = path.join(base, 'work');
  remote = path.join(base, 'remote.git');
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, 'victim.txt'), 'keep me\n');
  commitAll(workspace);
  execFileSync('git', ['init', '-q', '--bare', remote]);
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: workspace });
});
afterEach(async () => {
  await fake.close();
});
afterAll(() => {
  console.log(`command wrappers (oy run): ${cases} cases`);
});

function isPushed(): boolean {
  try {
    execFileSync('git', ['--git-dir', remote, 'rev-parse', '-q', '--verify', 'refs/heads/main'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

async function runWith(mode: string, permissions: Record<string, string[]>) {
  const config = path.join(path.dirname(workspace), 'config.json');
  // The policy is under test, not the sandbox: bwrap would keep the push from reaching the sibling remote.
  writeFileSync(config, JSON.stringify({ permissions, agent: { sandbox: 'off' } }));
  fake.enqueue(
    ...[...ATTACKS, CONTROL].map((command) => reply.toolCall('bash', { command })),
    reply.text('Done.'),
  );
  return runOy(['run', '--model', MODEL, '--mode', mode, 'tidy up and publish'], {
    cwd: workspace,
    env: { ...fakeProviderEnv(fake), OY_CONFIG: config },
  });
}

describe('oy run with Bash deny rules', () => {
  it.each([
    ['auto', { deny: ['Bash(rm:*)', 'Bash(git push:*)'] }],
    ['edit', { allow: ['Bash(*)'], deny: ['Bash(rm:*)', 'Bash(git push:*)'] }],
  ])('--mode %s refuses every wrapped form and runs the control', async (mode, permissions) => {
    cases += 1;
    const result = await runWith(mode, permissions);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(path.join(workspace, 'victim.txt'))).toBe(true);
    expect(isPushed()).toBe(false);
    expect(existsSync(path.join(workspace, 'control-ran.txt')), result.stderr).toBe(true);
    const sentBack = fake.modelCalls.map((call) => call.rawBody).join('\n');
    expect(sentBack).toContain('deny rule Bash(rm:*)');
    expect(sentBack).toContain('deny rule Bash(git push:*)');
    expect(sentBack).toContain('cannot be checked with certainty');
  });

  it('the same script deletes and pushes with no deny rule, so the canaries can fire', async () => {
    cases += 1;
    const result = await runWith('auto', {});
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(path.join(workspace, 'victim.txt'))).toBe(false);
    expect(isPushed()).toBe(true);
  });
});
