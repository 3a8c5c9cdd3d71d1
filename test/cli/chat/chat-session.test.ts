import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadSession } from '../../../src/agent/session/session-store.js';
import { AUTO_MODE_QUESTION } from '../../../src/cli/chat/switch-mode.js';
import { reply } from '../../fakes/script.js';
import { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import {
  answer,
  createChat,
  makeWorkspace,
  offeredToolNames,
  runScript,
  say,
  userTexts,
} from './chat-harness.js';

let fake: ScriptedModelClient;
let root: string;

beforeEach(() => {
  fake = new ScriptedModelClient();
  root = makeWorkspace();
});

const APPROVAL = 'Allow? [y]es / [n]o / [a]lways for this session (default no): ';

describe('oy chat session', () => {
  it('prints the banner, streams the answer to stdout and a status line after the turn', async () => {
    fake.enqueue(reply.text('Hello there.', { inputTokens: 100, outputTokens: 5 }));
    const run = await createChat(fake, root, [say('hi')]);
    await runScript(run);
    expect(run.stdout.text).toBe('Hello there.\n');
    expect(run.stderr.text).toMatch(
      /^oy chat · anthropic::claude-haiku-4-5 · mode ask · \/help for commands, Ctrl-D to exit\n/u,
    );
    expect(run.stderr.text).toMatch(
      /anthropic::claude-haiku-4-5 · mode ask · context \d+ tokens · \$0\.\d{4}\n/u,
    );
    // At the end, the session's id and the command that resumes it.
    const id = run.chat.agent.session!.id;
    expect(run.stderr.text).toMatch(
      new RegExp(`\\nsession ${id} saved; resume it with: oy chat --resume ${id}\\n$`, 'u'),
    );
    expect(run.editor.prompts).toEqual(['oy> ', 'oy> ']);
    fake.assertDone();
  });

  it('asks before each write: yes writes the file, no leaves it alone', async () => {
    fake.enqueue(
      reply.toolCall('write', { path: 'yes.txt', content: 'approved\n' }),
      reply.toolCall('write', { path: 'no.txt', content: 'refused\n' }),
      reply.text('Done.'),
    );
    const run = await createChat(fake, root, [say('make two files'), answer('y'), answer('n')]);
    await runScript(run);
    expect(readFileSync(path.join(root, 'yes.txt'), 'utf8')).toBe('approved\n');
    expect(existsSync(path.join(root, 'no.txt'))).toBe(false);
    expect(run.editor.questions).toEqual([APPROVAL, APPROVAL]);
    expect(run.stderr.text).toContain('write wants to: write yes.txt\n');
    expect(run.stderr.text).toContain('+approved');
    expect(run.stderr.text).toContain('• write no.txt denied by you');
    fake.assertDone();
  });

  it('always grants a session rule: the second write to the same file is not asked', async () => {
    fake.enqueue(
      reply.toolCall('write', { path: 'a.txt', content: 'one\n' }),
      reply.toolCall('write', { path: 'a.txt', content: 'two\n' }),
      reply.text('Written twice.'),
    );
    const run = await createChat(fake, root, [
      say('write a.txt twice'),
      answer('a'),
      say('/permissions'),
    ]);
    await runScript(run);
    expect(run.editor.questions).toHaveLength(1);
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');
    expect(run.stderr.text).toContain('always: allows changing exactly `a.txt` for this session');
    expect(run.stderr.text).toContain(
      'granted this session by "always" (exact commands and paths, kept in memory only):\n  Write(a.txt)\n',
    );
    fake.assertDone();
  });

  it('/undo restores the files of the last turn and removes the turn from the conversation and the session', async () => {
    writeFileSync(path.join(root, 'keep.txt'), 'original\n');
    fake.enqueue(
      reply.text('Nothing changed.'),
      reply.toolCall('edit', { path: 'keep.txt', old_string: 'original', new_string: 'changed' }),
      reply.toolCall('write', { path: 'new.txt', content: 'new\n' }),
      reply.text('Edited.'),
      reply.text('After the undo.'),
    );
    const run = await createChat(
      fake,
      root,
      [say('first'), say('change things'), say('/undo'), say('next')],
      { mode: 'edit' },
    );
    await runScript(run);
    expect(readFileSync(path.join(root, 'keep.txt'), 'utf8')).toBe('original\n');
    expect(existsSync(path.join(root, 'new.txt'))).toBe(false);
    expect(run.stderr.text).toContain('undone turn 2: restored keep.txt, removed new.txt\n');
    // The next request holds the first turn and the new one, not the undone one.
    expect(userTexts(fake.modelCalls.at(-1)!.body)).toEqual(['first', 'next']);
    // A resumed session replays the same conversation and numbers the next turn after all three.
    const loaded = await loadSession(run.chat.agent.options.stateDir, root, 'latest');
    expect(loaded.messages.filter((message) => message.role === 'user').map((m) => m.text)).toEqual(
      ['first', 'next'],
    );
    expect(loaded.turns).toBe(run.chat.agent.state.turns);
    expect(loaded.turns).toBe(3);
    fake.assertDone();
  });

  it('/undo of a turn that changed nothing restores no files; with no turn left it says so', async () => {
    writeFileSync(path.join(root, 'keep.txt'), 'original\n');
    fake.enqueue(
      reply.toolCall('write', { path: 'keep.txt', content: 'changed\n' }),
      reply.text('Written.'),
      reply.text('Just talk.'),
    );
    const run = await createChat(
      fake,
      root,
      [say('write'), say('talk'), say('/undo'), say('/undo'), say('/undo')],
      { mode: 'edit' },
    );
    await runScript(run);
    expect(run.stderr.text).toContain('undone turn 2: restored nothing, removed nothing\n');
    expect(run.stderr.text).toContain('undone turn 1: restored keep.txt, removed nothing\n');
    expect(run.stderr.text).toContain('nothing to undo\n');
    expect(readFileSync(path.join(root, 'keep.txt'), 'utf8')).toBe('original\n');
    expect(run.chat.agent.state.messages).toEqual([]);
  });

  it('/mode plan hides and refuses writes for later turns', async () => {
    fake.enqueue(
      reply.toolCall('write', { path: 'x.txt', content: 'x\n' }),
      reply.text('Refused.'),
    );
    const run = await createChat(fake, root, [say('/mode plan'), say('write x.txt')]);
    await runScript(run);
    expect(existsSync(path.join(root, 'x.txt'))).toBe(false);
    expect(run.editor.questions).toEqual([]);
    expect(run.stderr.text).toContain('mode plan for the next turns\n');
    expect(run.stderr.text).toMatch(/• write x\.txt denied by plan mode/u);
    expect(offeredToolNames(fake.modelCalls[0]!.body)).not.toContain('write');
    expect(run.stderr.text).toContain('· mode plan ·');
  });

  it('/mode alone lists the modes; a bad mode is one line of error, not the help', async () => {
    const run = await createChat(fake, root, [say('/mode'), say('/mode fast')]);
    await runScript(run);
    expect(run.stderr.text).toContain('mode ask (choose plan, ask, edit, auto)\n');
    expect(run.stderr.text).toContain('error: unknown mode "fast": choose plan, ask, edit, auto\n');
    expect(run.stderr.text).not.toContain('Commands:');
    expect(run.chat.agent.mode).toBe('ask');
  });

  it('/mode auto and its alias yolo switch only after a yes', async () => {
    const run = await createChat(fake, root, [
      say('/mode yolo'),
      answer('n'),
      say('/mode auto'),
      answer(null),
      say('/mode auto'),
      answer('y'),
    ]);
    await runScript(run);
    expect(run.editor.questions).toEqual([
      AUTO_MODE_QUESTION,
      AUTO_MODE_QUESTION,
      AUTO_MODE_QUESTION,
    ]);
    expect(run.stderr.text).toContain('yolo is auto mode\n');
    expect(run.stderr.text.match(/mode stays ask\n/gu)).toHaveLength(2);
    expect(run.stderr.text).toContain('mode auto for the next turns\n');
    expect(run.chat.agent.mode).toBe('auto');
  });

  it('/mode edit switches without a question, naming an alias', async () => {
    const run = await createChat(fake, root, [say('/mode accept-edits'), say('/mode edit')]);
    await runScript(run);
    expect(run.editor.questions).toEqual([]);
    expect(run.stderr.text).toContain('mode edit for the next turns (accept-edits is edit)\n');
    expect(run.stderr.text).toContain('mode edit already\n');
    expect(run.chat.agent.mode).toBe('edit');
  });

  it('/ask runs one turn in plan mode and leaves the mode as it was', async () => {
    fake.enqueue(reply.text('It is a test folder.'), reply.text('Back in ask mode.'));
    const run = await createChat(fake, root, [say('/ask what is here?'), say('and now?')]);
    await runScript(run);
    const [planned, normal] = fake.modelCalls;
    expect(offeredToolNames(planned!.body)).not.toContain('write');
    expect(userTexts(planned!.body)).toEqual(['what is here?']);
    expect(offeredToolNames(normal!.body)).toContain('write');
    expect(run.chat.agent.mode).toBe('ask');
    expect(run.stdout.text).toContain('It is a test folder.');
  });

  it('an unknown command is one line naming the nearest command, and the chat goes on', async () => {
    fake.enqueue(reply.text('Still here.'));
    const run = await createChat(fake, root, [
      say('/xyz'),
      say('/mdoel'),
      say('/stauts'),
      say('/he'),
      say('hello'),
    ]);
    await runScript(run);
    expect(run.stderr.text).toContain('unknown command /xyz; /help lists the commands\n');
    expect(run.stderr.text).toContain('unknown command /mdoel; did you mean /model?\n');
    expect(run.stderr.text).toContain('unknown command /stauts; did you mean /status?\n');
    expect(run.stderr.text).toContain('unknown command /he; did you mean /help?\n');
    expect(run.stderr.text).not.toContain('Commands:');
    expect(run.stdout.text).toBe('Still here.\n');
  });

  it('an empty chat saves no session and prints no resume command', async () => {
    const run = await createChat(fake, root, [say('/mode')]);
    await runScript(run);
    expect(run.chat.agent.session).toBeUndefined();
    expect(run.stderr.text).not.toContain('resume it with');
  });

  it('/compact with nothing older says so; after several turns it summarises them', async () => {
    fake.enqueue(
      reply.text('one'),
      reply.text('two'),
      reply.text('three'),
      reply.text('four'),
      reply.text('five'),
      reply.text('six'),
      reply.text('Summary: goal, facts, plan.'),
    );
    const turns = ['a', 'b', 'c', 'd', 'e', 'f'].map((word) =>
      say(`turn ${word} ${'x'.repeat(3000)}`),
    );
    const run = await createChat(fake, root, [say('/compact'), ...turns, say('/compact')]);
    await runScript(run);
    expect(run.stderr.text).toContain('nothing to compact\n');
    const match = /compacted: (\d+) -> (\d+) tokens\n/u.exec(run.stderr.text);
    expect(match).not.toBeNull();
    expect(Number(match![2])).toBeLessThan(Number(match![1]));
    expect(fake.modelCalls).toHaveLength(7);
    expect(run.chat.agent.state.messages.length).toBeLessThan(12);
    fake.assertDone();
  });

  it('/clear starts a fresh conversation in a new session', async () => {
    fake.enqueue(reply.text('First answer.'), reply.text('Fresh answer.'));
    const run = await createChat(fake, root, [say('remember me'), say('/clear'), say('who am I?')]);
    await runScript(run);
    expect(run.stderr.text).toContain('started a fresh conversation\n');
    expect(userTexts(fake.modelCalls[1]!.body)).toEqual(['who am I?']);
    const latest = await loadSession(run.chat.agent.options.stateDir, root, 'latest');
    const previous = await loadSession(run.chat.agent.options.stateDir, root, '2');
    expect(latest.summary.firstPrompt).toBe('who am I?');
    expect(previous.summary.firstPrompt).toBe('remember me');
  });

  it('/save names the session and /load switches back to it', async () => {
    fake.enqueue(reply.text('Saved one.'), reply.text('Other one.'), reply.text('Back.'));
    const run = await createChat(fake, root, [
      say('first topic'),
      say('/save alpha'),
      say('/clear'),
      say('second topic'),
      say('/load'),
      say('/load alpha'),
      say('continue the first'),
    ]);
    await runScript(run);
    expect(run.stderr.text).toMatch(/session \S+ saved as alpha\n/u);
    expect(run.stderr.text).toMatch(/ {2}1 {2}\S+ {2}1 turns {2}second topic/u);
    expect(run.stderr.text).toMatch(/loaded session \S+ \(alpha\): 1 turns\n/u);
    expect(userTexts(fake.modelCalls.at(-1)!.body)).toEqual(['first topic', 'continue the first']);
  });

  it('/load of an unknown session prints the error and the chat goes on', async () => {
    const run = await createChat(fake, root, [say('/load nope'), say('/status')]);
    await runScript(run);
    expect(run.stderr.text).toContain('error: no saved session for this workspace\n');
    expect(run.stderr.text).toContain('model     anthropic::claude-haiku-4-5\n');
  });

  it('Ctrl-C during a turn aborts it, says interrupted, and the next prompt works', async () => {
    const editor: { interrupt?: () => void } = {};
    let requests = 0;
    const slow = new ScriptedModelClient({
      script: [{ kind: 'answer', text: 'never seen', latencyMs: 20_000 }, reply.text('Next.')],
      // Ctrl-C once the first request is in flight.
      onRequest: () => {
        requests += 1;
        if (requests === 1) editor.interrupt?.();
      },
    });
    const run = await createChat(slow, root, [say('slow'), say('fast')]);
    editor.interrupt = () => run.editor.interrupt();
    await runScript(run);
    expect(run.stderr.text).toContain('interrupted');
    expect(run.stdout.text).toContain('Next.');
    expect(run.stdout.text).not.toContain('never seen');
    expect(run.editor.listeners).toBe(0);
    expect(userTexts(slow.modelCalls[1]!.body)).toEqual(['slow', 'fast']);
  });

  it('Ctrl-C twice on an empty prompt exits; once only warns', async () => {
    fake.enqueue(reply.text('ok'));
    const run = await createChat(fake, root, [
      { interrupt: true },
      say('hi'),
      { interrupt: true },
      { interrupt: true },
      say('never read'),
    ]);
    await runScript(run);
    expect(run.stderr.text.split('(press Ctrl-C again or Ctrl-D to exit)').length - 1).toBe(2);
    expect(run.editor.remainingSteps).toBe(1);
  });

  it('/model switches the client for later turns; /quit ends the chat', async () => {
    fake.enqueue(reply.text('From gpt.'));
    const run = await createChat(fake, root, [
      say('/model openai::gpt-4o'),
      say('hi'),
      say('/quit'),
      say('unused'),
    ]);
    await runScript(run);
    expect(run.stderr.text).toContain('model openai::gpt-4o for the next turns\n');
    expect(fake.modelCalls[0]!.protocol).toBe('openai');
    expect(run.editor.remainingSteps).toBe(1);
  });
});
