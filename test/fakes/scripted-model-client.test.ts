import { describe, expect, it } from 'vitest';
import { gatherModelResult } from '../../src/providers/gather-model-result.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import type { ModelRequest } from '../../src/providers/types.js';
import { reply, type ScriptedReply } from './script.js';
import { ScriptedModelClient } from './scripted-model-client.js';

const request = (text: string): ModelRequest => ({
  system: 'test',
  messages: [{ role: 'user', text }],
  maxTokens: 100,
});

/** A client whose end-of-test check is left to the case itself. */
const unchecked = (script: ScriptedReply[] = [reply.text('hi')], model?: string) =>
  new ScriptedModelClient({ script, checkAtEnd: false, ...(model ? { model } : {}) });

describe('the scripted model client', () => {
  it('streams text, tool calls, thinking, usage and the stop reason, and records the wire body', async () => {
    const fake = unchecked([
      {
        kind: 'answer',
        thinking: [{ text: 'let me look' }],
        text: 'Reading.',
        toolCalls: [{ name: 'read', arguments: { path: 'a' } }],
        usage: { inputTokens: 7, outputTokens: 3 },
      },
    ]);
    const result = await gatherModelResult(fake.stream(request('go')));
    expect(result).toMatchObject({
      text: 'Reading.',
      toolCalls: [{ id: 'toolu_fake_1_0', name: 'read', arguments: { path: 'a' } }],
      usage: { inputTokens: 7, outputTokens: 3 },
      stopReason: 'tool_use',
    });
    expect(result.thinking?.[0]).toMatchObject({ type: 'thinking', text: 'let me look' });
    expect(fake.calls[0]!.protocol).toBe('anthropic');
    expect(fake.calls[0]!.rawBody).toContain('"model":"claude-haiku-4-5"');
    fake.assertDone();
  });

  it('fails a call beyond the script, and assertDone reports it', async () => {
    const fake = unchecked([]);
    await expect(fake.complete(request('one too many'))).rejects.toThrow('beyond the script');
    expect(() => fake.assertDone()).toThrow('unexpected calls');
  });

  it('fails assertDone when a scripted reply was never asked for', async () => {
    const fake = unchecked([reply.text('a'), reply.text('b')]);
    await fake.complete(request('only one'));
    expect(() => fake.assertDone()).toThrow('1 scripted replies were never requested');
  });

  it('refuses a request the service would reject (a tool call left unanswered), by the HTTP fakes rules', async () => {
    const fake = unchecked();
    const broken: ModelRequest = {
      ...request('first'),
      messages: [
        { role: 'user', text: 'first' },
        {
          role: 'assistant',
          text: '',
          toolCalls: [{ id: 'toolu_1', name: 'read', arguments: {} }],
        },
        { role: 'user', text: 'second' },
      ],
    };
    await expect(fake.complete(broken)).rejects.toBeInstanceOf(ProviderError);
    expect(() => fake.assertDone()).toThrow('would reject');
  });

  it('throws scripted errors as classified provider errors, with Retry-After', async () => {
    const fake = unchecked([reply.rateLimited('2'), reply.error(400)], 'openai::gpt-4o');
    const first = await fake.complete(request('a')).catch((error: unknown) => error);
    expect(first).toMatchObject({ kind: 'rate_limited', retryAfterMs: 2000, status: 429 });
    await expect(fake.complete(request('b'))).rejects.toMatchObject({ kind: 'bad_request' });
    expect(fake.calls.map((call) => call.protocol)).toEqual(['openai', 'openai']);
    fake.assertDone();
  });

  it('ends a wait at once when the signal aborts', async () => {
    const fake = unchecked([{ ...reply.text('late'), latencyMs: 60_000 }]);
    const controller = new AbortController();
    const pending = fake.complete(request('wait'), { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});
