import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSession } from '../../../src/agent/session/session-store.js';
import type { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { reply } from '../../fakes/script.js';
import { startFakeProvider } from '../../fakes/start-fake-provider.js';
import { createChat, makeWorkspace, runScript, say } from '../../cli/chat/chat-harness.js';
import { useAwsEnvironment } from '../bedrock/bedrock-fixture.js';

useAwsEnvironment();

/** `oy chat` tool loops with thinking on, a `/undo`, then more turns: every request checked by the validating fake. */
const MODELS = ['anthropic::claude-sonnet-5', 'bedrock::global.anthropic.claude-sonnet-5'];

let fake: FakeProviderServer;
let root: string;
let cases = 0;
beforeEach(async () => {
  fake = await startFakeProvider();
  root = makeWorkspace();
  writeFileSync(path.join(root, 'notes.txt'), 'hello\n');
  cases++;
});
afterEach(async () => {
  await fake.close();
});
afterAll(() => console.log(`thinking chat undo: ${cases} cases`));

/** The texts a recorded request carries, whatever the wire format (Anthropic blocks, Bedrock content). */
function textsOf(body: unknown): string {
  return JSON.stringify(body);
}

describe.each(MODELS)('chat with a thinking model (%s)', (model) => {
  it('/undo drops a thinking tool-loop turn, and the next turns are still accepted', async () => {
    fake.enqueue(
      { ...reply.thinkingToolCall('Undone thought.', 'list', { path: '.' }), text: '\n\n' },
      reply.thinkingText('Seen notes.txt.', 'Undone answer.'),
      { ...reply.thinkingToolCall('Kept thought.', 'list', { path: '.' }), text: ' ' },
      reply.thinkingText('Still notes.txt.', 'One file.'),
      reply.thinkingText('Recalling.', 'As I said, one file.'),
    );
    const run = await createChat(fake, root, [
      say(`/model ${model}`),
      say('what is here?'),
      say('/undo'),
      say('look again'),
      say('and now?'),
    ]);
    await runScript(run);
    expect(run.stdout.text).toContain('As I said, one file.');
    // The undone turn's thinking is gone from later requests; the kept turn's signed thinking goes back.
    const last = textsOf(fake.modelCalls.at(-1)!.body);
    expect(last).not.toContain('Undone thought.');
    expect(last).not.toContain('what is here?');
    expect(last).toContain('Kept thought.');
    // Whitespace-only text never goes back, in either wire format.
    expect(last).not.toMatch(/"text":"\s*"/);
    const loaded = await loadSession(run.chat.agent.options.stateDir, root, 'latest');
    expect(loaded.summary.model).toBe(model);
    fake.assertDone();
  });
});
