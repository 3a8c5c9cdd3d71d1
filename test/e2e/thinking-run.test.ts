import { mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';

/**
 * `oy run` tool loops with thinking on, continued with `oy run -c`, then `oy chat -c` with `/undo` and another
 * tool loop, then `oy run -c` again: the built CLI against validating fakes, so every request is one the
 * service accepts.
 */
const MODELS = ['anthropic::claude-sonnet-5', 'bedrock::global.anthropic.claude-sonnet-5'];

let fake: FakeProviderServer;
let workspace: string;
beforeEach(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-thinking-e2e-')));
  writeFileSync(path.join(workspace, 'notes.txt'), 'hello\n');
});
afterEach(async () => {
  await fake.close();
});

describe.each(MODELS)('oy run with a thinking model (%s)', (model) => {
  it('runs a tool loop, prints thinking as JSON events, continues with -c, /undo in chat, and -c again', async () => {
    const env = {
      ...fakeProviderEnv(fake),
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_CONFIG_FILE: path.join(workspace, 'no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(workspace, 'no-aws-credentials'),
    };
    fake.enqueue(
      { ...reply.thinkingToolCall('I will list the files.', 'list', { path: '.' }), text: '\n\n' },
      reply.thinkingText('notes.txt is there.', 'There is one file.'),
    );
    const first = await runOy(['run', '--json', '--model', model, 'what is here?'], {
      cwd: workspace,
      env,
    });
    expect(first.code, first.stderr).toBe(0);
    const events = first.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; text?: string });
    expect(
      events
        .filter((event) => event.type === 'thinking_delta')
        .map((e) => e.text)
        .join(''),
    ).toContain('I will list the files.');
    expect(events.at(-1)).toMatchObject({ type: 'done', answer: 'There is one file.' });

    fake.enqueue(reply.thinkingText('Still one.', 'Yes, one file.'));
    const second = await runOy(['run', '-c', '--model', model, 'and now?'], {
      cwd: workspace,
      env,
    });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('Yes, one file.');
    // The replayed session carried signed thinking and no whitespace-only text: the fake checked every request.
    expect(JSON.stringify(fake.modelCalls.at(-1)!.body)).not.toMatch(/"text":"\s*"/);

    // The same session in oy chat: a thinking tool loop, /undo of it, then another one.
    fake.enqueue(
      { ...reply.thinkingToolCall('Undone listing.', 'list', { path: '.' }), text: ' ' },
      reply.thinkingText('Undone thought.', 'Undone answer.'),
      { ...reply.thinkingToolCall('Listing again.', 'list', { path: '.' }), text: '\n' },
      reply.thinkingText('Same as before.', 'Seen again: one file.'),
    );
    const chat = await runOy(['chat', '-c', '--model', model], {
      cwd: workspace,
      env,
      input: 'look again\n/undo\nonce more\n',
    });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('Seen again: one file.');
    const afterUndo = JSON.stringify(fake.modelCalls.at(-1)!.body);
    expect(afterUndo).not.toContain('Undone listing.');
    expect(afterUndo).toContain('and now?');

    // And back to oy run -c: the undone turn stays gone, the chat's loop replays, every request accepted.
    fake.enqueue(reply.thinkingText('Recalling.', 'Still one file.'));
    const last = await runOy(['run', '-c', '--model', model, 'last question'], {
      cwd: workspace,
      env,
    });
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toContain('Still one file.');
    const replayed = JSON.stringify(fake.modelCalls.at(-1)!.body);
    for (const undone of ['look again', 'Undone listing.', 'Undone answer.'])
      expect(replayed).not.toContain(undone);
    expect(replayed).toContain('once more');
    expect(replayed).toContain('Listing again.');
    fake.assertDone();
  });
});

const ESC = String.fromCharCode(0x1b);

describe('reasoning_content from an OpenAI-compatible server', () => {
  it('is kept in the session, printed as thinking_delta in --json, shown dimmed in chat, sent back only in its loop', async () => {
    const port = new URL(fake.url).port;
    const model = `local-${port}::qwen3`;
    const reasoning = `Reasoning ${Math.random().toString(36).slice(2)} about files.`;
    fake.enqueue(
      {
        kind: 'answer',
        thinking: [{ text: reasoning }],
        toolCalls: [{ name: 'list', arguments: { path: '.' } }],
      },
      { kind: 'answer', thinking: [{ text: 'Found it.' }], text: 'One file.' },
    );
    const run = await runOy(['run', '--json', '--model', model, 'what is here?'], {
      cwd: workspace,
    });
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; text?: string });
    const thought = events
      .filter((event) => event.type === 'thinking_delta')
      .map((event) => event.text)
      .join('');
    expect(thought).toContain(reasoning);
    // The answer is not mixed with the reasoning.
    expect(events.at(-1)).toMatchObject({ type: 'done', answer: 'One file.' });

    // Saved in the session with its source, as the model sent it.
    const stateDir = path.join(process.env.XDG_STATE_HOME!, 'oy');
    const saved = readdirSync(stateDir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => readFileSync(path.join(stateDir, name), 'utf8'))
      .join('\n');
    expect(saved).toContain(reasoning);
    expect(saved).toMatch(/"source":"openai"/);

    // In chat, continued: the reasoning is shown dimmed on stderr, and no request carries it back.
    fake.enqueue({ kind: 'answer', thinking: [{ text: 'Chat reasoning.' }], text: 'Still one.' });
    const chat = await runOy(['chat', '-c', '--model', model], {
      cwd: workspace,
      env: { NO_COLOR: undefined, FORCE_COLOR: '1' },
      input: 'and now?\n',
    });
    expect(chat.code, chat.stderr).toBe(0);
    // Each streamed piece is written dim (SGR 2 … 22); together they are the reasoning.
    const DIM_SPAN = new RegExp(`${ESC}\\[2m(.*?)${ESC}\\[22m`, 'g');
    const dimmed = [...chat.stderr.matchAll(DIM_SPAN)].map((m) => m[1]).join('');
    expect(dimmed).toContain('Chat reasoning.');
    expect(chat.stderr.replace(DIM_SPAN, '')).not.toContain('reaso');
    expect(chat.stdout).toContain('Still one.');
    // It goes back only inside its own tool loop (DeepSeek-style servers need it there), never later.
    const [first, inLoop, ...later] = fake.modelCalls;
    expect(first!.rawBody).not.toContain('reasoning_content');
    expect(inLoop!.rawBody).toContain(`"reasoning_content":"${reasoning}"`);
    for (const call of later) expect(call.rawBody).not.toContain('reasoning_content');
    fake.assertDone();
  });
});
