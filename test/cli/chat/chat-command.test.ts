import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { reply } from '../../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../../fakes/start-fake-provider.js';
import { runOy } from '../../support/run-oy.js';
import { makeWorkspace, MODEL } from './chat-harness.js';

/** `oy chat` through the built CLI (run `npm run build` first) with piped input: plain output, approvals from the input lines. */
let fake: FakeProviderServer;
let workspace: string;

beforeEach(async () => {
  fake = await startFakeProvider();
  workspace = makeWorkspace();
});
afterEach(async () => {
  await fake.close();
});

function chat(args: string[], input: string) {
  return runOy(['chat', '--model', MODEL, ...args], {
    cwd: workspace,
    env: fakeProviderEnv(fake),
    input,
  });
}

describe('oy chat (piped)', () => {
  it('reads messages and approvals from stdin, answers on stdout, exits 0 at the end of input', async () => {
    fake.enqueue(
      reply.toolCall('write', { path: 'one.txt', content: 'one\n' }),
      reply.toolCall('write', { path: 'two.txt', content: 'two\n' }),
      reply.text('I wrote **one** file.'),
    );
    const result = await chat([], 'write two files\ny\nn\n/todo\n');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('I wrote **one** file.\n');
    expect(result.stderr).toContain(
      `oy chat · ${MODEL} · mode ask · /help for commands, Ctrl-D to exit\n`,
    );
    expect(result.stderr).toContain('write wants to: write one.txt\n');
    expect(result.stderr).toContain(
      'Allow? [y]es / [n]o / [a]lways for this session (default no): y\n',
    );
    expect(result.stderr).toContain('no todos\n');
    expect(result.stderr).not.toContain('\u001b[');
    expect(readFileSync(path.join(workspace, 'one.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(path.join(workspace, 'two.txt'))).toBe(false);
    fake.assertDone();
  });

  it('--mode plan and -c continue the latest session', async () => {
    fake.enqueue(reply.text('First.'), reply.text('Second.'));
    expect((await chat([], 'remember the number 7\n')).code).toBe(0);
    const second = await chat(['--mode', 'plan', '-c'], 'which number?\n');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('· mode plan ·');
    const body = fake.modelCalls[1]!.body as { messages: unknown[] };
    expect(JSON.stringify(body.messages)).toContain('remember the number 7');
  });

  it('a bad --mode is a usage error', async () => {
    const result = await chat(['--mode', 'fast'], '');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'error: --mode must be one of plan, ask, edit, auto, got `fast`',
    );
  });

  it('oy chat --help lists its flags', async () => {
    const result = await runOy(['chat', '--help'], { cwd: workspace });
    expect(result.code).toBe(0);
    for (const flag of ['--mode <mode>', '-c, --continue', '--resume <session>'])
      expect(result.stdout).toContain(flag);
  });
});
