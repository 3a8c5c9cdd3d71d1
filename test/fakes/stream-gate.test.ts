import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/providers/create-model-client.js';
import { parseModelId } from '../../src/providers/model-id/parse-model-id.js';
import type { FakeProviderServer } from './fake-provider-server.js';
import { fakeProviderEnv, startFakeProvider } from './start-fake-provider.js';
import { StreamGate } from './stream-gate.js';

/** The gate paces a streamed answer through the official SDKs, and knows when the client hung up. */
const MODELS = [
  'anthropic::claude-haiku-4-5',
  'openai::gpt-4o',
  'bedrock::us.anthropic.claude-haiku-4-5-20251001-v1:0',
];
const WORDS = Array.from({ length: 12 }, (_, index) => `w${index} `);
const REQUEST = {
  system: 'test',
  messages: [{ role: 'user' as const, text: 'hi' }],
  maxTokens: 64,
};
let fake: FakeProviderServer;
const savedEnv = { ...process.env };

beforeAll(async () => {
  fake = await startFakeProvider();
  // The AWS SDK reads its credential chain from process.env; the other SDKs get settings only.
  Object.assign(process.env, fakeProviderEnv(fake));
});
afterEach(() => {
  fake.assertDone();
});
afterAll(async () => {
  await fake.close();
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
});

const clientFor = (id: string) =>
  createModelClient(parseModelId(id), fakeProviderEnv(fake), {
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });

describe.each(MODELS)('stream gate (%s)', (id) => {
  it('lets out only what it allows, and sees the client hang up', async () => {
    const client = await clientFor(id);
    const gate = new StreamGate();
    fake.enqueue({ kind: 'answer', textChunks: WORDS, gate });
    const controller = new AbortController();
    gate.allow(4);
    let text = '';
    try {
      for await (const event of client.stream(REQUEST, { signal: controller.signal })) {
        if (event.type === 'text_delta') text += event.text;
        if (text.includes('w0 ')) controller.abort();
      }
    } catch {
      // The abort ends the stream with an error, as in the chat.
    }
    // Only the first few events were let out before the client stopped reading.
    expect(text).toMatch(/^(w\d+ )+$/u);
    expect(text.split(' ').length - 1).toBeLessThan(4);
    gate.allowAll();
    expect((await gate.ended).closedEarly).toBe(true);
  });

  it('control: allowed through, the whole answer arrives and the stream ends by itself', async () => {
    const client = await clientFor(id);
    const gate = new StreamGate();
    fake.enqueue({ kind: 'answer', textChunks: WORDS, gate });
    gate.allowAll();
    let text = '';
    for await (const event of client.stream(REQUEST))
      if (event.type === 'text_delta') text += event.text;
    expect(text).toBe(WORDS.join(''));
    expect((await gate.ended).closedEarly).toBe(false);
  });
});
