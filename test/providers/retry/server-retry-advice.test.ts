import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../../src/providers/create-model-client.js';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';
import type { RetryInfo } from '../../../src/providers/retry/with-retries.js';
import type { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { reply, type ScriptedError } from '../../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../../fakes/start-fake-provider.js';

/** `x-should-retry` and `retry-after-ms` through the real SDKs: the server's advice decides retries and waits. */
const MODELS = ['anthropic::claude-haiku-4-5', 'openai::gpt-4o'];
const ASK = { system: 'Test.', messages: [{ role: 'user' as const, text: 'hi' }], maxTokens: 64 };

let fake: FakeProviderServer;
let waits: RetryInfo[];
let cases = 0;
beforeEach(async () => {
  fake = await startFakeProvider();
  waits = [];
  cases++;
});
afterEach(async () => {
  await fake.close();
});
afterAll(() => console.log(`server retry advice: ${cases} cases`));

/** A client whose waits are recorded, not slept: the delay asked for is asserted, never timed. */
function clientFor(model: string) {
  return createModelClient(parseModelId(model), fakeProviderEnv(fake), {
    retry: { random: () => 0, sleep: async () => undefined, onRetry: (info) => waits.push(info) },
  });
}

describe.each(MODELS)('%s', (model) => {
  it('x-should-retry: false stops a 500 from being retried', async () => {
    fake.enqueue({ ...reply.serverError(), shouldRetry: 'false' });
    const client = await clientFor(model);
    await expect(client.complete(ASK)).rejects.toMatchObject({
      kind: 'server',
      shouldRetry: false,
    });
    expect(fake.modelCalls).toHaveLength(1);
    fake.assertDone();
  });

  it('control: the same 500 without the header is retried', async () => {
    fake.enqueue(reply.serverError(), reply.text('ok'));
    const client = await clientFor(model);
    await expect(client.complete(ASK)).resolves.toMatchObject({ text: 'ok' });
    expect(fake.modelCalls).toHaveLength(2);
    fake.assertDone();
  });

  it('x-should-retry: true retries a status that is otherwise final (400)', async () => {
    const conflict: ScriptedError = { kind: 'error', status: 400, shouldRetry: 'true' };
    fake.enqueue(conflict, reply.text('ok'));
    const client = await clientFor(model);
    await expect(client.complete(ASK)).resolves.toMatchObject({ text: 'ok' });
    expect(fake.modelCalls).toHaveLength(2);
    fake.assertDone();
  });

  it('control: a 400 without the header fails at once', async () => {
    fake.enqueue({ kind: 'error', status: 400 });
    const client = await clientFor(model);
    await expect(client.complete(ASK)).rejects.toMatchObject({ status: 400 });
    expect(fake.modelCalls).toHaveLength(1);
    fake.assertDone();
  });

  it('retry-after-ms is waited, over the coarser retry-after, on a 503 too', async () => {
    fake.enqueue(
      { kind: 'error', status: 503, retryAfterMs: '2500', retryAfter: '9' },
      reply.text('ok'),
    );
    const client = await clientFor(model);
    await expect(client.complete(ASK)).resolves.toMatchObject({ text: 'ok' });
    expect(waits.map((wait) => wait.delayMs)).toEqual([2500]);
    fake.assertDone();
  });
});
