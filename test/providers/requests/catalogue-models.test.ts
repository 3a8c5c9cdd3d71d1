import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../../../src/agent/loop/loop-options.js';
import { readAnthropicCatalogue } from '../../../src/providers/catalogue/read-anthropic-catalogue.js';
import { invokableBedrockIds } from '../../../src/providers/model-facts/model-facts-for.js';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';
import { listPricedModelIds } from '../../../src/providers/pricing/list-priced-model-ids.js';
import { gatherModelResult } from '../../../src/providers/gather-model-result.js';
import type { ModelRequest } from '../../../src/providers/types.js';
import type { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { reply } from '../../fakes/script.js';
import { startFakeProvider } from '../../fakes/start-fake-provider.js';
import { httpClientFor } from '../../agent/loop/loop-harness.js';
import { useAwsEnvironment } from '../bedrock/bedrock-fixture.js';

useAwsEnvironment();

/**
 * Every id `oy model` lists (the installed SDK's Anthropic ids, the price table's OpenAI and Bedrock ids,
 * profile ids where Bedrock needs them), and ids people configure beside them, gets an agent-sized request with tools and cache hints, built from
 * oy's model facts and judged by the fakes' own catalogue of each service: a fact wrong in oy's table (an
 * output limit, a thinking kind, caching, a profile) fails here for that id.
 */
const REQUEST: ModelRequest = {
  system: 'You are a test agent.',
  messages: [{ role: 'user', text: 'hi' }],
  tools: [{ name: 'list', description: 'Lists.', inputSchema: { type: 'object', properties: {} } }],
  maxTokens: DEFAULT_MAX_OUTPUT_TOKENS,
  cache: { system: true, tools: true, lastMessage: true },
};

/** Ids people configure that the lists leave out: open-weight and Nova models on Bedrock, OpenAI reasoning models. */
const CONFIGURED = [
  'bedrock::meta.llama3-1-70b-instruct-v1:0',
  'bedrock::us.meta.llama3-3-70b-instruct-v1:0',
  'bedrock::mistral.mistral-large-2407-v1:0',
  'bedrock::amazon.nova-pro-v1:0',
  'bedrock::us.amazon.nova-premier-v1:0',
  'bedrock::anthropic.claude-3-5-sonnet-20241022-v2:0',
  'openai::o3',
  'openai::o4-mini',
  'openai::gpt-5-mini',
  'openai::gpt-5.1-chat-latest',
];

const ids = [
  ...new Set([
    ...readAnthropicCatalogue().models.map((model) => `anthropic::${model}`),
    ...listPricedModelIds('openai'),
    ...listPricedModelIds('bedrock').flatMap((id) => invokableBedrockIds(parseModelId(id))),
    ...CONFIGURED,
  ]),
];

let fake: FakeProviderServer;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  console.log(`catalogue models: ${ids.length} ids`);
  await fake.close();
});

describe('every listed model id', () => {
  it('has ids from all three services', () => {
    for (const prefix of ['anthropic::', 'openai::', 'bedrock::'])
      expect(ids.filter((id) => id.startsWith(prefix)).length).toBeGreaterThan(2);
  });

  it.each(ids)('%s: the service accepts an agent request built from its facts', async (id) => {
    fake.enqueue(reply.text('ok'));
    const client = await httpClientFor(fake, id);
    // Streamed, as the agent calls: Bedrock models without streaming tool use must be sent to Converse.
    const result = await gatherModelResult(client.stream(REQUEST)).catch(
      (error: unknown) => (error as Error).message,
    );
    expect(result, JSON.stringify(fake.takeViolations())).toMatchObject({ text: 'ok' });
  });
});
