import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../../fakes/script.js';
import { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import { createChat, makeWorkspace, runScript, say } from './chat-harness.js';

/** /diff: the chat's changes from its checkpoints, by file tools and by commands in a git work tree. */
let root: string;

beforeAll(() => {
  root = makeWorkspace();
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root });
  git('init', '-q');
  writeFileSync(path.join(root, 'tracked.txt'), 'before\n');
  writeFileSync(path.join(root, 'gone.txt'), 'will go\n');
  writeFileSync(path.join(root, 'same.txt'), 'untouched\n');
  git('add', '.');
  git('commit', '-qm', 'start');
});

describe('oy chat /diff', () => {
  it('shows what the turns changed, by tools and by commands, and nothing once undone', async () => {
    const fake = new ScriptedModelClient();
    fake.enqueue(
      reply.toolCall('write', { path: 'new.txt', content: 'fresh\n' }),
      reply.toolCall('bash', { command: 'echo after > tracked.txt && rm gone.txt' }),
      reply.text('Changed.'),
    );
    const run = await createChat(
      fake,
      root,
      [say('change'), say('/diff'), say('/undo'), say('/diff')],
      {
        mode: 'auto',
      },
    );
    await runScript(run);
    const text = run.stderr.text;
    const shown = text.slice(0, text.indexOf('undone turn'));
    expect(shown).toContain('--- /dev/null\n+++ b/new.txt');
    expect(shown).toMatch(/^\+fresh$/mu);
    expect(shown).toMatch(/^-before$/mu);
    expect(shown).toMatch(/^\+after$/mu);
    expect(shown).toContain('--- a/gone.txt\n+++ /dev/null');
    expect(shown).not.toContain('same.txt');
    // After /undo the workspace is as it was, so the second /diff has nothing to show.
    expect(text.slice(text.indexOf('undone turn'))).toContain(
      'no changes to the workspace in this chat\n',
    );
    fake.assertDone();
  });
});
