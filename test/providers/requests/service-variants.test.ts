import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/provider-error.js';
import type { ModelRequest, StreamEvent } from '../../../src/providers/types.js';
import { anthropicProtocol } from '../../fakes/anthropic-protocol.js';
import { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { reply } from '../../fakes/script.js';
import { startFakeProvider } from '../../fakes/start-fake-provider.js';
import { httpClientFor } from '../../agent/loop/loop-harness.js';
import { useAwsEnvironment } from '../bedrock/bedrock-fixture.js';

useAwsEnvironment();

const TOOL = {
  name: 'list',
  description: 'Lists.',
  inputSchema: { type: 'object', properties: {} },
};
const ASK: ModelRequest = {
  system: 'You are terse.',
  messages: [{ role: 'user', text: 'List.' }],
  tools: [TOOL],
  maxTokens: 512,
  cache: { system: true, tools: true, lastMessage: true },
};

let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('Bedrock requests follow the model facts', () => {
  it('Llama: Converse (not the stream) for tools, no cache points, no toolResult.status', async () => {
    fake = await startFakeProvider({
      script: [reply.toolCall('list', {}), reply.text('done')],
    });
    const client = await httpClientFor(fake, 'bedrock::meta.llama3-1-70b-instruct-v1:0');
    const events = await collect(client.stream(ASK));
    const call = events.find((event) => event.type === 'tool_call');
    expect(call).toBeDefined();
    const id = call?.type === 'tool_call' ? call.call.id : '';
    await collect(
      client.stream({
        ...ASK,
        messages: [
          ...ASK.messages,
          { role: 'assistant', text: '', toolCalls: [{ id, name: 'list', arguments: {} }] },
          { role: 'tool', results: [{ toolCallId: id, content: 'none', isError: true }] },
        ],
      }),
    );
    expect(fake.modelCalls.map((request) => request.path.split('/').at(-1))).toEqual([
      'converse',
      'converse',
    ]);
    const sent = JSON.stringify(fake.modelCalls[1]!.body);
    expect(sent).not.toContain('cachePoint');
    expect(sent).not.toContain('"status"');
    fake.assertDone();
  });

  it('Claude 3 Haiku gets no cache points; Claude Sonnet 4.5 gets them', async () => {
    fake = await startFakeProvider({ script: [reply.text('a'), reply.text('b')] });
    await (
      await httpClientFor(fake, 'bedrock::anthropic.claude-3-haiku-20240307-v1:0')
    ).complete(ASK);
    await (
      await httpClientFor(fake, 'bedrock::us.anthropic.claude-sonnet-4-5-20250929-v1:0')
    ).complete(ASK);
    expect(JSON.stringify(fake.modelCalls[0]!.body)).not.toContain('cachePoint');
    expect(JSON.stringify(fake.modelCalls[1]!.body)).toContain('cachePoint');
    fake.assertDone();
  });

  it('a bare id of a profile-only model fails with the inference profile id to use', async () => {
    fake = await startFakeProvider({ script: [reply.text('never')] });
    const client = await httpClientFor(fake, 'bedrock::anthropic.claude-sonnet-4-5-20250929-v1:0');
    const error = await client.complete(ASK).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'bad_request' });
    expect((error as ProviderError).hint).toContain('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(fake.takeViolations()[0]?.message).toMatch(/on-demand throughput/);
    expect(fake.pending).toBe(1);
  });
});

describe('Bedrock documents', () => {
  it('past five documents in a request, the rest go as delimited text, and names are made valid', async () => {
    fake = await startFakeProvider({ script: [reply.text('read')] });
    const client = await httpClientFor(
      fake,
      'bedrock::us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    );
    const documents = Array.from({ length: 7 }, (_, index) => ({
      name: index < 2 ? 'src/app.ts' : `notes ${index}.md`,
      format: 'txt' as const,
      data: `document ${index}`,
    }));
    const result = await client.complete({
      ...ASK,
      messages: [{ role: 'user', text: 'Read these.', documents }],
    });
    expect(result.text).toBe('read');
    const sent = JSON.stringify(fake.modelCalls[0]!.body);
    expect(sent.match(/"document":/g)).toHaveLength(5);
    expect(sent).toContain('<document name=\\"notes 6.md\\" format=\\"txt\\">\\ndocument 6');
    fake.assertDone();
  });
});

describe('OpenAI-compatible stream variants', () => {
  it('reads reasoning_content, a whole tool call without index, no usage, no [DONE], stop with tools', async () => {
    fake = await startFakeProvider({
      script: [
        {
          kind: 'answer',
          thinking: [{ text: 'Let me think.' }],
          toolCalls: [{ name: 'list', arguments: { all: true } }],
          openai: { noDone: true, wholeToolCalls: true, noUsage: true, stopWithToolCalls: true },
        },
      ],
    });
    const client = await httpClientFor(fake, 'openai::qwen3');
    const result = await client.complete({ ...ASK, cache: {} });
    expect(result.thinking).toEqual([
      { type: 'thinking', source: 'openai', text: 'Let me think.' },
    ]);
    expect(result.toolCalls).toEqual([
      { id: 'call_fake_1_0', name: 'list', arguments: { all: true } },
    ]);
    expect(result.stopReason).toBe('tool_use');
    expect(result.usage.inputTokens).toBe(0);
    fake.assertDone();
  });

  it('o3 gets max_completion_tokens with room for its reasoning', async () => {
    fake = await startFakeProvider({ script: [reply.text('ok')] });
    await (await httpClientFor(fake, 'openai::o3')).complete({ ...ASK, temperature: 0.2 });
    const body = fake.modelCalls[0]!.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
    expect(body.max_completion_tokens).toBeGreaterThan(512);
    fake.assertDone();
  });
});

describe('Anthropic-compatible gateways', () => {
  it('a stream of data-only SSE lines is read: thinking, text and tool calls, named by their JSON type', async () => {
    fake = await startFakeProvider({
      script: [
        {
          ...reply.thinkingToolCall('Listing first.', 'list', { all: true }),
          text: 'Let me look.',
          dataOnly: true,
        },
      ],
    });
    const client = await httpClientFor(fake, 'anthropic::claude-sonnet-4-5');
    const result = await client.complete(ASK);
    expect(result.text).toBe('Let me look.');
    expect(result.thinking).toMatchObject([{ type: 'thinking', text: 'Listing first.' }]);
    expect(result.toolCalls).toMatchObject([{ name: 'list', arguments: { all: true } }]);
    expect(fake.modelCalls).toHaveLength(1);
    fake.assertDone();
  });

  it('an error inside a data-only 200 stream is the error it names, and is retried', async () => {
    fake = await startFakeProvider({
      script: [
        { ...reply.text('one two'), dataOnly: true, streamErrorAfterEvents: 1 },
        reply.text('recovered'),
      ],
    });
    const client = await httpClientFor(fake, 'anthropic::claude-haiku-4-5');
    expect((await client.complete(ASK)).text).toBe('recovered');
    expect(fake.modelCalls).toHaveLength(2);
    fake.assertDone();
  });

  it('a stream of chat-completion chunks at /v1/messages is explained once, not retried as a break', async () => {
    const chunks = FakeProviderServer.start({
      script: [reply.text('unused')],
      handlers: [
        {
          ...anthropicProtocol,
          respond: async ({ res }) => {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.end('data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n');
          },
        },
      ],
    });
    fake = await chunks;
    const client = await httpClientFor(fake, 'anthropic::claude-haiku-4-5');
    const error = await client.complete(ASK).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'bad_request' });
    expect((error as ProviderError).message).toMatch(/carried no Anthropic events/);
    expect(fake.modelCalls).toHaveLength(1);
    fake.assertDone();
  });

  it('a 404 without the API error body is a missing route, not an unknown model', async () => {
    fake = await startFakeProvider({
      script: [{ kind: 'error', status: 404, rawBody: '{"detail":"Not Found"}' }],
    });
    const client = await httpClientFor(fake, 'anthropic::claude-haiku-4-5');
    const error = await client.complete(ASK).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'bad_request' });
    expect((error as ProviderError).message).toMatch(/has no \/v1\/messages route/);
    expect((error as ProviderError).hint).toMatch(/ANTHROPIC_BASE_URL/);
    fake.assertDone();
  });

  it('a 404 with the API error body is still an unknown model (control)', async () => {
    fake = await startFakeProvider({ script: [reply.error(404, 'not_found_error')] });
    const client = await httpClientFor(fake, 'anthropic::claude-haiku-4-5');
    await expect(client.complete(ASK)).rejects.toMatchObject({ kind: 'model_not_found' });
    fake.assertDone();
  });
});

describe('a Bedrock endpoint override that is not Bedrock', () => {
  const MODEL = 'bedrock::global.anthropic.claude-sonnet-5';

  it.each([['{"detail":"Not Found"}'], ['<html>Not Found</html>']])(
    'a 404 without an AWS error type (%s) is a missing route, not an unknown model, streamed or not',
    async (rawBody) => {
      fake = await startFakeProvider({
        script: [
          { kind: 'error', status: 404, rawBody },
          { kind: 'error', status: 404, rawBody },
        ],
      });
      const client = await httpClientFor(fake, MODEL);
      for (const call of [() => client.complete(ASK), () => collect(client.stream(ASK))]) {
        const error = (await call().catch((caught: unknown) => caught)) as ProviderError;
        expect(error).toMatchObject({ kind: 'bad_request', status: 404 });
        expect(error.message).toMatch(/has no Bedrock Converse route/);
        expect(error.message).not.toMatch(/does not know/);
        expect(error.hint).toMatch(/AWS_ENDPOINT_URL_BEDROCK_RUNTIME/);
      }
      fake.assertDone();
    },
  );

  it('a ResourceNotFoundException is still an unknown model (control)', async () => {
    fake = await startFakeProvider({
      script: [{ kind: 'error', status: 404, errorType: 'ResourceNotFoundException' }],
    });
    const client = await httpClientFor(fake, MODEL);
    await expect(client.complete(ASK)).rejects.toMatchObject({ kind: 'model_not_found' });
    fake.assertDone();
  });
});

describe('an OpenAI-compatible base URL without the route', () => {
  it('a 404 without an error body names the route or the model, and the base URL to check', async () => {
    fake = await startFakeProvider({
      script: [{ kind: 'error', status: 404, rawBody: '{"detail":"Not Found"}' }],
    });
    const client = await httpClientFor(fake, 'openai::gpt-4o');
    const error = (await client.complete(ASK).catch((caught: unknown) => caught)) as ProviderError;
    expect(error).toMatchObject({ kind: 'bad_request', status: 404 });
    expect(error.message).toMatch(
      /answered 404 without an error body: there is no chat-completions route there, or no model "gpt-4o"/,
    );
    expect(error.hint).toMatch(/base URL/);
    fake.assertDone();
  });

  it('a 404 with an OpenAI error body is an unknown model (control)', async () => {
    fake = await startFakeProvider({ script: [reply.error(404, 'model_not_found')] });
    const client = await httpClientFor(fake, 'openai::gpt-4o');
    const error = (await client.complete(ASK).catch((caught: unknown) => caught)) as ProviderError;
    expect(error).toMatchObject({ kind: 'model_not_found' });
    expect(error.message).toMatch(/does not serve model "gpt-4o"/);
    fake.assertDone();
  });
});
