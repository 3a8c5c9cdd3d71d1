import { describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../../src/providers/openai/create-openai-client.js';
import type { ModelRequest, ProviderName } from '../../../src/providers/types.js';
import { reply } from '../../fakes/script.js';
import { openAiRef, startOpenAiFake } from './openai-fixture.js';

const ASK: ModelRequest = { system: '', messages: [{ role: 'user', text: 'hi' }], maxTokens: 10 };

interface PrefixCase {
  provider: ProviderName;
  model: string;
  /** The base URL's path, as the resolver would set it for this prefix. */
  basePath: string;
  apiKey: string;
  hint: string;
}

const CASES: PrefixCase[] = [
  {
    provider: 'openai',
    model: 'gpt-4.1-mini',
    basePath: '/v1',
    apiKey: 'openai-test-key',
    hint: 'check OPENAI_API_KEY',
  },
  {
    provider: 'local',
    model: 'qwen3-coder-30b',
    basePath: '/v1',
    apiKey: 'oy-local',
    hint: 'check LOCAL_API_KEY',
  },
  {
    provider: 'ollama',
    model: 'llama3.2:3b',
    basePath: '/v1',
    apiKey: '',
    hint: 'run oy doctor --online',
  },
  {
    provider: 'openrouter',
    model: 'anthropic/claude-sonnet-4.5',
    basePath: '/api/v1',
    apiKey: 'or-test-key',
    hint: 'check OPENROUTER_API_KEY',
  },
];

describe('OpenAI-compatible prefixes', () => {
  it.each(CASES)(
    '$provider:: talks to its base URL with its key',
    async ({ provider, model, basePath, apiKey, hint }) => {
      const fake = await startOpenAiFake([reply.text(`hello from ${provider}`), reply.error(401)]);
      const port = Number(new URL(fake.url).port);
      const ref = openAiRef(model, provider, provider === 'local' ? port : undefined);
      const client = createOpenAiClient(ref, { apiKey, baseURL: `${fake.url}${basePath}` });

      const result = await client.complete(ASK);
      const error = await client.complete(ASK).catch((caught: unknown) => caught);

      expect(result.text).toBe(`hello from ${provider}`);
      expect(fake.modelCalls[0]?.path).toBe(`${basePath}/chat/completions`);
      expect(fake.modelCalls[0]?.body).toMatchObject({ model, max_tokens: 10 });
      // Ollama needs no key, but the SDK must still send one.
      expect(fake.modelCalls[0]?.headers['authorization']).toBe(`Bearer ${apiKey || 'oy-no-key'}`);
      expect(error).toMatchObject({ kind: 'auth', hint: expect.stringContaining(hint) });
      expect((error as Error).message.startsWith(`${ref.id}: `)).toBe(true);
      fake.assertDone();
    },
  );
});
