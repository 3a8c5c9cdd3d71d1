import { expect } from 'vitest';
import { createAnthropicClient } from '../../../src/providers/anthropic/create-anthropic-client.js';
import type { AnthropicSettings } from '../../../src/providers/provider-settings.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import type {
  ModelClient,
  ModelRef,
  ModelRequest,
  StreamEvent,
} from '../../../src/providers/types.js';
import { anthropicProtocol } from '../../fakes/anthropic-protocol.js';
import { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import type { ScriptedReply } from '../../fakes/script.js';

/** Recognisable, so a test can prove it never reaches an error. */
export const FAKE_API_KEY = 'sk-ant-fake-oy-test-key-0123456789';

export const REF: ModelRef = {
  provider: 'anthropic',
  model: 'claude-test-1',
  id: 'anthropic::claude-test-1',
};

/** A model with budgeted thinking (`thinking: {type: "enabled", budget_tokens}`), in the model facts. */
export const THINKING_REF: ModelRef = {
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  id: 'anthropic::claude-sonnet-4-5',
};

export const HELLO: ModelRequest = {
  system: 'You are terse.',
  messages: [{ role: 'user', text: 'Say hello.' }],
  maxTokens: 256,
};

export function startFake(...script: ScriptedReply[]): Promise<FakeProviderServer> {
  return FakeProviderServer.start({ script, handlers: [anthropicProtocol] });
}

export function clientFor(
  fake: FakeProviderServer,
  settings: Partial<AnthropicSettings> = {},
  ref: ModelRef = REF,
): ModelClient {
  return createAnthropicClient(ref, { apiKey: FAKE_API_KEY, baseURL: fake.url, ...settings });
}

export async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** The ProviderError a call fails with (fails the test when it succeeds or throws something else). */
export async function providerErrorOf(work: Promise<unknown>): Promise<ProviderError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** Events seen before a stream failed, and the failure. */
export async function collectUntilError(
  events: AsyncIterable<StreamEvent>,
): Promise<{ seen: StreamEvent[]; error: ProviderError }> {
  const seen: StreamEvent[] = [];
  const error = await providerErrorOf(
    (async () => {
      for await (const event of events) seen.push(event);
    })(),
  );
  return { seen, error };
}

/** The last recorded model call's JSON body. */
export function lastBody(fake: FakeProviderServer): Record<string, unknown> {
  const call = fake.modelCalls.at(-1);
  if (!call) throw new Error('no model call was recorded');
  return call.body as Record<string, unknown>;
}
