import type Anthropic from '@anthropic-ai/sdk';
import { StopReason as BedrockStopReason } from '@aws-sdk/client-bedrock-runtime';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/providers/create-model-client.js';
import { parseModelId } from '../../src/providers/model-id/parse-model-id.js';
import type { FinishReason } from '../../src/providers/openai/to-openai-stop-reason.js';
import type { ModelRequest, ModelStopReason, StreamEvent } from '../../src/providers/types.js';
import type { FakeProtocol, FakeProviderServer } from '../fakes/fake-provider-server.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { WIRE_STOP_REASONS, type ScriptedStopReason } from '../fakes/stop-reasons.js';

/** Every stop reason each service sends reaches the caller normalised, through the real SDK, streamed and whole. */
const MODELS: Record<FakeProtocol, string> = {
  anthropic: 'anthropic::claude-haiku-4-5',
  openai: 'openai::gpt-4o-mini',
  bedrock: 'bedrock::us.anthropic.claude-haiku-4-5-20251001-v1:0',
};

/** What oy makes of each scripted reason, per service (OpenAI says `stop` for a stop sequence too). */
const EXPECTED: Record<ScriptedStopReason, Partial<Record<FakeProtocol, ModelStopReason>>> = {
  end_turn: { anthropic: 'end_turn', bedrock: 'end_turn', openai: 'end_turn' },
  tool_use: { anthropic: 'tool_use', bedrock: 'tool_use', openai: 'tool_use' },
  max_tokens: { anthropic: 'max_tokens', bedrock: 'max_tokens', openai: 'max_tokens' },
  stop_sequence: { anthropic: 'stop_sequence', bedrock: 'stop_sequence', openai: 'end_turn' },
  refusal: { anthropic: 'refusal', openai: 'refusal' },
  pause_turn: { anthropic: 'pause_turn' },
  model_context_window_exceeded: { anthropic: 'context_exceeded', bedrock: 'context_exceeded' },
  guardrail_intervened: { bedrock: 'content_filter' },
  content_filtered: { bedrock: 'content_filter' },
  malformed_model_output: { bedrock: 'malformed' },
  malformed_tool_use: { bedrock: 'malformed' },
  content_filter: { openai: 'content_filter' },
};

// Records, so a stop reason added to an SDK's type fails to compile here until the fake sends it.
const ANTHROPIC_SENDS: Record<Anthropic.StopReason, true> = {
  end_turn: true,
  max_tokens: true,
  stop_sequence: true,
  tool_use: true,
  pause_turn: true,
  refusal: true,
  model_context_window_exceeded: true,
};
// `function_call` answers only the deprecated `functions` parameter, which oy never sends.
const OPENAI_SENDS: Record<Exclude<FinishReason, 'function_call'>, true> = {
  stop: true,
  length: true,
  tool_calls: true,
  content_filter: true,
};

const request: ModelRequest = {
  system: 'You answer briefly.',
  messages: [{ role: 'user', text: 'Say hello.' }],
  maxTokens: 64,
};

let fake: FakeProviderServer;
const savedEnv = { ...process.env };

beforeAll(async () => {
  fake = await startFakeProvider();
  // The AWS SDK reads its credential chain from process.env.
  Object.assign(process.env, fakeProviderEnv(fake));
});

afterEach(() => {
  fake.requests.length = 0;
});

afterAll(async () => {
  await fake.close();
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
});

const cases = Object.entries(EXPECTED).flatMap(([scripted, byProtocol]) =>
  Object.entries(byProtocol).map(([protocol, expected]) => ({
    scripted: scripted as ScriptedStopReason,
    protocol: protocol as FakeProtocol,
    expected,
  })),
);

describe('stop reasons', () => {
  it('the fakes send every stop reason each service documents', () => {
    const sent = (protocol: FakeProtocol) =>
      new Set(Object.values(WIRE_STOP_REASONS).flatMap((wire) => wire[protocol] ?? []));
    expect([...sent('anthropic')].sort()).toEqual(Object.keys(ANTHROPIC_SENDS).sort());
    expect([...sent('bedrock')].sort()).toEqual(Object.values(BedrockStopReason).sort());
    expect([...sent('openai')].sort()).toEqual(Object.keys(OPENAI_SENDS).sort());
  });

  it.each(cases)(
    '$protocol $scripted arrives as $expected, streamed and whole',
    async ({ scripted, protocol, expected }) => {
      const answer = { kind: 'answer' as const, text: 'Partial answer', stopReason: scripted };
      fake.enqueue(answer, answer);
      const client = await createModelClient(parseModelId(MODELS[protocol]), fakeProviderEnv(fake));
      const events: StreamEvent[] = [];
      for await (const event of client.stream(request)) events.push(event);
      expect(events.at(-1)).toEqual({ type: 'stop', reason: expected });
      const whole = await client.complete(request);
      expect(whole.stopReason).toBe(expected);
      // The text arrives either way: whether to accept it is the caller's decision.
      expect(whole.text).toBe('Partial answer');
      fake.assertDone();
    },
  );

  it.each([
    ['anthropic', 'guardrail_intervened'],
    ['bedrock', 'refusal'],
    ['openai', 'pause_turn'],
  ] as const)(
    'the %s fake refuses to send %s, which that service never sends',
    async (protocol, scripted) => {
      fake.enqueue({ kind: 'answer', text: 'x', stopReason: scripted });
      const client = await createModelClient(
        parseModelId(MODELS[protocol]),
        fakeProviderEnv(fake),
        {
          retry: { maxAttempts: 1 },
        },
      );
      await expect(client.complete(request)).rejects.toThrow();
      expect(() => fake.assertDone()).toThrow(`never ends an answer with ${scripted}`);
      fake.unexpected.length = 0;
    },
  );
});
