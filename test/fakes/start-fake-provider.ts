import { createAnthropicBatchRoute, type FakeBatchBehaviour } from './anthropic-batches.js';
import { anthropicProtocol } from './anthropic-protocol.js';
import { bedrockProtocol } from './bedrock-protocol.js';
import { FakeProviderServer, type FakeProviderOptions } from './fake-provider-server.js';
import { openaiProtocol } from './openai-protocol.js';
import type { ScriptedReply } from './script.js';

export interface StartFakeProviderOptions {
  script?: ScriptedReply[];
  /** Ids the listing endpoints return. */
  models?: string[];
  port?: number;
  onRequest?: FakeProviderOptions['onRequest'];
  /** Anthropic Message Batches; read at every request, so a test may change it between runs. */
  batches?: FakeBatchBehaviour;
}

/** A fake provider that speaks all three protocols (Anthropic, OpenAI-compatible, Bedrock) on one loopback port. */
export function startFakeProvider(
  options: StartFakeProviderOptions = {},
): Promise<FakeProviderServer> {
  return FakeProviderServer.start({
    handlers: [anthropicProtocol, openaiProtocol, bedrockProtocol],
    routes: [createAnthropicBatchRoute(options.batches ?? { inProgressPolls: 0 })],
    ...(options.script ? { script: options.script } : {}),
    ...(options.models ? { models: options.models } : {}),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });
}

/** Environment that points every provider at the fake, with dummy credentials the fake never checks. */
export function fakeProviderEnv(fake: FakeProviderServer): Record<string, string> {
  return {
    ANTHROPIC_API_KEY: 'fake-anthropic-key',
    ANTHROPIC_BASE_URL: fake.url,
    OPENAI_API_KEY: 'fake-openai-key',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    AWS_ACCESS_KEY_ID: 'AKIAFAKEFAKEFAKEFAKE',
    AWS_SECRET_ACCESS_KEY: 'fake-secret-access-key',
    AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.url,
  };
}
