import { afterEach, describe, expect, it } from 'vitest';
import type { Message, ModelRequest, ToolDefinition } from '../../../src/providers/types.js';
import type { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { reply } from '../../fakes/script.js';
import {
  FAKE_API_KEY,
  HELLO,
  THINKING_REF,
  clientFor,
  collect,
  lastBody,
  startFake,
} from './anthropic-fixture.js';

const READ_FILE: ToolDefinition = {
  name: 'read_file',
  description: 'Read a file in the workspace.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const LIST_FILES: ToolDefinition = {
  name: 'list_files',
  description: 'List files under a directory.',
  inputSchema: { type: 'object', properties: { dir: { type: 'string' } } },
};

let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('anthropic client: answers', () => {
  it('completes a text answer through the streaming Messages API', async () => {
    fake = await startFake(reply.text('Hello there.', { inputTokens: 21, outputTokens: 4 }));
    const result = await clientFor(fake).complete(HELLO);

    expect(result).toEqual({
      text: 'Hello there.',
      toolCalls: [],
      usage: { inputTokens: 21, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: 'end_turn',
    });
    const call = fake.modelCalls[0]!;
    expect(call.path).toBe('/v1/messages');
    // SDK 1.x sends the API key as a bearer token.
    expect(call.headers.authorization).toBe(`Bearer ${FAKE_API_KEY}`);
    expect(call.isStream).toBe(true);
    expect(lastBody(fake)).toMatchObject({ model: 'claude-test-1', max_tokens: 256, stream: true });
    fake.assertDone();
  });

  it('streams text deltas in order, then usage, then stop', async () => {
    fake = await startFake({
      kind: 'answer',
      textChunks: ['Hel', 'lo, ', 'wor', 'ld'],
      usage: { outputTokens: 6 },
    });
    const events = await collect(clientFor(fake).stream(HELLO));

    expect(events.map((event) => event.type)).toEqual([
      'text_delta',
      'text_delta',
      'text_delta',
      'text_delta',
      'usage',
      'stop',
    ]);
    const text = events.map((event) => (event.type === 'text_delta' ? event.text : '')).join('');
    expect(text).toBe('Hello, world');
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'end_turn' });
    fake.assertDone();
  });

  it('reports a max_tokens stop', async () => {
    fake = await startFake({ kind: 'answer', text: 'Trunc', stopReason: 'max_tokens' });
    const result = await clientFor(fake).complete(HELLO);
    expect(result.stopReason).toBe('max_tokens');
    fake.assertDone();
  });

  it('reports usage with cache read and cache write tokens', async () => {
    fake = await startFake(
      reply.text('cached', {
        inputTokens: 12,
        outputTokens: 34,
        cacheReadTokens: 5600,
        cacheWriteTokens: 780,
      }),
    );
    const events = await collect(clientFor(fake).stream(HELLO));
    const usage = events.filter((event) => event.type === 'usage');

    expect(usage).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: 12, outputTokens: 34, cacheReadTokens: 5600, cacheWriteTokens: 780 },
      },
    ]);
    fake.assertDone();
  });

  it('sends a thinking budget when one is asked for, and never a temperature', async () => {
    fake = await startFake(reply.text('thought'));
    await clientFor(fake, {}, THINKING_REF).complete({
      ...HELLO,
      maxTokens: 8000,
      reasoningBudgetTokens: 2048,
      temperature: 0.2,
    });

    const body = lastBody(fake);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    // The budget comes on top of the answer's share, so thinking cannot starve the answer.
    expect(body.max_tokens).toBe(8000 + 2048);
    expect(body).not.toHaveProperty('temperature');
    fake.assertDone();
  });
});

describe('anthropic client: tools', () => {
  it('emits parsed tool calls when each block stops, text first', async () => {
    fake = await startFake({
      kind: 'answer',
      text: 'Let me look.',
      toolCalls: [
        { name: 'read_file', arguments: { path: 'src/a.ts' } },
        { name: 'list_files', arguments: { dir: 'src', nested: { deep: [1, 2, 'three'] } } },
      ],
    });
    const events = await collect(
      clientFor(fake).stream({ ...HELLO, tools: [READ_FILE, LIST_FILES] }),
    );

    expect(events.filter((event) => event.type !== 'text_delta')).toEqual([
      {
        type: 'tool_call',
        call: { id: 'toolu_fake_1_0', name: 'read_file', arguments: { path: 'src/a.ts' } },
      },
      {
        type: 'tool_call',
        call: {
          id: 'toolu_fake_1_1',
          name: 'list_files',
          arguments: { dir: 'src', nested: { deep: [1, 2, 'three'] } },
        },
      },
      {
        type: 'usage',
        usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      { type: 'stop', reason: 'tool_use' },
    ]);
    expect(lastBody(fake).tools).toEqual([
      {
        name: 'read_file',
        description: READ_FILE.description,
        input_schema: READ_FILE.inputSchema,
      },
      {
        name: 'list_files',
        description: LIST_FILES.description,
        input_schema: LIST_FILES.inputSchema,
      },
    ]);
    fake.assertDone();
  });

  it('carries the tool call and its result back in the next request', async () => {
    fake = await startFake(
      {
        kind: 'answer',
        toolCalls: [
          { name: 'read_file', arguments: { path: 'README.md' } },
          { id: 'toolu_other', name: 'read_file', arguments: { path: 'MISSING.md' } },
        ],
      },
      reply.text('It is a readme.'),
    );
    const client = clientFor(fake);
    const first: ModelRequest = { ...HELLO, tools: [READ_FILE] };
    const turn = await client.complete(first);
    const call = turn.toolCalls[0]!;
    expect(call).toEqual({
      id: 'toolu_fake_1_0',
      name: 'read_file',
      arguments: { path: 'README.md' },
    });

    const messages: Message[] = [
      ...first.messages,
      { role: 'assistant', text: turn.text, toolCalls: turn.toolCalls },
      {
        role: 'tool',
        results: [
          { toolCallId: call.id, content: '{"text":"# oy"}' },
          { toolCallId: 'toolu_other', content: 'no such file', isError: true },
        ],
      },
    ];
    const second = await client.complete({ ...first, messages });

    expect(second.text).toBe('It is a readme.');
    expect(lastBody(fake).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Say hello.' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_fake_1_0',
            name: 'read_file',
            input: { path: 'README.md' },
          },
          {
            type: 'tool_use',
            id: 'toolu_other',
            name: 'read_file',
            input: { path: 'MISSING.md' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_fake_1_0', content: '{"text":"# oy"}' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_other',
            content: 'no such file',
            is_error: true,
          },
        ],
      },
    ]);
    fake.assertDone();
  });
});

describe('anthropic client: documents and cache breakpoints', () => {
  const withHistory: ModelRequest = {
    system: 'Audit the code.',
    tools: [READ_FILE, LIST_FILES],
    maxTokens: 1024,
    messages: [
      {
        role: 'user',
        text: 'Look at this.',
        documents: [{ name: 'notes.md', format: 'md', data: '# Notes' }],
      },
      {
        role: 'assistant',
        text: 'Reading.',
        toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: { path: 'a' } }],
      },
      { role: 'tool', results: [{ toolCallId: 'toolu_1', content: 'file a' }] },
    ],
  };

  it('places a breakpoint on the system block, the last tool and the last block of the last message', async () => {
    fake = await startFake(reply.text('ok'));
    await clientFor(fake).complete({
      ...withHistory,
      cache: { system: true, tools: true, lastMessage: true },
    });
    const body = lastBody(fake);

    expect(cacheControlPaths(body)).toEqual(['messages.2.content.0', 'system.0', 'tools.1']);
    expect((body.system as unknown[])[0]).toEqual({
      type: 'text',
      text: 'Audit the code.',
      cache_control: { type: 'ephemeral' },
    });
    fake.assertDone();
  });

  it('places only the breakpoints asked for, and none without hints', async () => {
    fake = await startFake(reply.text('ok'), reply.text('ok'), reply.text('ok'));
    const client = clientFor(fake);
    await client.complete({ ...withHistory, cache: { lastMessage: true } });
    expect(cacheControlPaths(lastBody(fake))).toEqual(['messages.2.content.0']);
    await client.complete({ ...withHistory, cache: { tools: true } });
    expect(cacheControlPaths(lastBody(fake))).toEqual(['tools.1']);
    await client.complete(withHistory);
    expect(cacheControlPaths(lastBody(fake))).toEqual([]);
    fake.assertDone();
  });

  it('sends documents as document blocks before the text: text sources, and base64 for pdf', async () => {
    fake = await startFake(reply.text('ok'));
    const pdf = Buffer.from('%PDF-1.4 fake').toString('base64');
    await clientFor(fake).complete({
      ...HELLO,
      messages: [
        {
          role: 'user',
          text: 'Summarise both.',
          documents: [
            { name: 'notes.md', format: 'md', data: '# Notes' },
            { name: 'spec.pdf', format: 'pdf', data: pdf },
          ],
        },
      ],
    });

    expect(lastBody(fake).messages).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'document',
            title: 'notes.md',
            source: { type: 'text', media_type: 'text/plain', data: '# Notes' },
          },
          {
            type: 'document',
            title: 'spec.pdf',
            source: { type: 'base64', media_type: 'application/pdf', data: pdf },
          },
          { type: 'text', text: 'Summarise both.' },
        ],
      },
    ]);
    fake.assertDone();
  });

  it('sends exactly this request for a tool round trip with a document and cache hints', async () => {
    fake = await startFake(reply.text('ok'));
    // Budgeted thinking in a tool loop needs the loop's thinking back first, signed as the service signed it.
    const thought = 'The file is short.';
    const [user, assistant, results] = withHistory.messages;
    await clientFor(fake, {}, THINKING_REF).complete({
      ...withHistory,
      messages: [
        user!,
        {
          ...(assistant as Extract<Message, { role: 'assistant' }>),
          thinking: [
            {
              type: 'thinking',
              source: 'anthropic',
              text: thought,
              signature: fake.ledger.sign(thought),
            },
          ],
        },
        results!,
      ],
      reasoningBudgetTokens: 1024,
      cache: { system: true, tools: true, lastMessage: true },
    });
    const call = fake.modelCalls[0]!;
    const headers = Object.fromEntries(
      STABLE_HEADERS.filter((name) => call.headers[name] !== undefined).map((name) => [
        name,
        name === 'authorization' ? 'Bearer <api key>' : call.headers[name],
      ]),
    );

    const body = JSON.parse(
      call.rawBody.replaceAll(fake.ledger.sign(thought), '<signature>'),
    ) as unknown;
    expect({ method: call.method, path: call.path, headers, body }).toMatchSnapshot();
    fake.assertDone();
  });
});

/** Request headers that do not vary by machine or SDK build. */
const STABLE_HEADERS = [
  'accept',
  'anthropic-version',
  'authorization',
  'content-type',
  'x-api-key',
];

/** Where `cache_control` appears in a request body, as sorted dotted paths. */
function cacheControlPaths(value: unknown, path: string[] = []): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const found = 'cache_control' in value ? [path.join('.')] : [];
  for (const [key, child] of Object.entries(value))
    found.push(...cacheControlPaths(child, [...path, key]));
  return found.sort();
}
