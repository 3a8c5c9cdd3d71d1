import { describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../../src/providers/openai/create-openai-client.js';
import type { ModelRequest } from '../../../src/providers/types.js';
import { reply } from '../../fakes/script.js';
import { openAiRef, rejectionOf, settingsFor, startOpenAiFake } from './openai-fixture.js';

const ASK: ModelRequest = { system: '', messages: [{ role: 'user', text: 'hi' }], maxTokens: 10 };

/** Far longer than the test's own timeout: the test only ends if the abort works. */
const NEVER_MS = 30_000;
/** A hundred events this far apart outlast the test's timeout. */
const SLOW_EVENT_MS = 200;

describe('OpenAI cancellation', () => {
  it('aborting mid-stream stops at once with kind aborted', async () => {
    // Many slow events: the whole answer would take longer than the test may run.
    const textChunks = Array.from({ length: 100 }, (_, index) => `piece ${index} `);
    const fake = await startOpenAiFake([
      { kind: 'answer', textChunks, eventDelayMs: SLOW_EVENT_MS },
    ]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));
    const controller = new AbortController();
    const seen: string[] = [];

    const error = await rejectionOf(
      (async () => {
        for await (const event of client.stream(ASK, { signal: controller.signal })) {
          if (event.type === 'text_delta') {
            seen.push(event.text);
            controller.abort();
          }
        }
      })(),
    );

    expect(seen).toEqual(['piece 0 ']);
    expect(error).toMatchObject({ kind: 'aborted', isRetryable: false, exitCode: 130 });
    fake.assertDone();
  }, 10_000);

  it('aborting while waiting for the headers stops with kind aborted', async () => {
    const fake = await startOpenAiFake([{ ...reply.text('late'), latencyMs: NEVER_MS }]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));
    const controller = new AbortController();

    const pending = client.complete(ASK, { signal: controller.signal });
    // Abort once the fake has the request in hand.
    await fake.whenRequested();
    controller.abort();

    expect(await rejectionOf(pending)).toMatchObject({ kind: 'aborted' });
    fake.assertDone();
  }, 10_000);

  it('an already aborted signal sends nothing', async () => {
    const fake = await startOpenAiFake([]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));

    const error = await rejectionOf(client.complete(ASK, { signal: AbortSignal.abort() }));

    expect(error).toMatchObject({ kind: 'aborted' });
    expect(fake.requests).toHaveLength(0);
    fake.assertDone();
  });
});
