import { describe, expect, it } from 'vitest';
import { reply } from '../../fakes/script.js';
import { createBedrockClient } from '../../../src/providers/bedrock/create-bedrock-client.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import type { Message, ModelRequest, ToolDefinition } from '../../../src/providers/types.js';
import {
  bedrockRef,
  bodyOf,
  CLAUDE_MODEL,
  collect,
  rejectionOf,
  settingsFor,
  stableRequest,
  startBedrockFake,
  useAwsEnvironment,
} from './bedrock-fixture.js';

useAwsEnvironment();

const READ_FILE: ToolDefinition = {
  name: 'read_file',
  description: 'Read a file from the workspace.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

function ask(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You audit code.',
    messages: [{ role: 'user', text }],
    maxTokens: 512,
    ...extra,
  };
}

describe('Bedrock answers', () => {
  it('completes a text answer through Converse JSON', async () => {
    const fake = await startBedrockFake([
      reply.text('All clear.', { inputTokens: 42, outputTokens: 3 }),
    ]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const result = await client.complete(ask('Anything wrong?'));

    expect(result).toEqual({
      text: 'All clear.',
      toolCalls: [],
      usage: { inputTokens: 42, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: 'end_turn',
    });
    expect(fake.modelCalls.map((call) => call.path)).toEqual([
      `/model/${encodeURIComponent(CLAUDE_MODEL)}/converse`,
    ]);
    fake.assertDone();
  });

  it('streams a text answer through the binary event stream', async () => {
    const fake = await startBedrockFake([
      {
        kind: 'answer',
        text: 'Three small pieces',
        textChunks: ['Three ', 'small ', 'pieces'],
        usage: { outputTokens: 4 },
      },
    ]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const events = await collect(client.stream(ask('Say it in pieces')));

    expect(events).toEqual([
      { type: 'text_delta', text: 'Three ' },
      { type: 'text_delta', text: 'small ' },
      { type: 'text_delta', text: 'pieces' },
      {
        type: 'usage',
        usage: { inputTokens: 10, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      { type: 'stop', reason: 'end_turn' },
    ]);
    expect(fake.modelCalls[0]?.path).toBe(
      `/model/${encodeURIComponent(CLAUDE_MODEL)}/converse-stream`,
    );
    fake.assertDone();
  });

  it('assembles a streamed tool call and sends its result back in the next request', async () => {
    const fake = await startBedrockFake([
      {
        kind: 'answer',
        text: 'Let me look.',
        toolCalls: [
          {
            id: 'tooluse_abc123',
            name: 'read_file',
            arguments: { path: 'src/app.ts', lines: [1, 40] },
          },
        ],
      },
      reply.text('The file is fine.'),
    ]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));
    const first = ask('Check src/app.ts', { tools: [READ_FILE] });

    const events = await collect(client.stream(first));

    const call = {
      id: 'tooluse_abc123',
      name: 'read_file',
      arguments: { path: 'src/app.ts', lines: [1, 40] },
    };
    expect(events.filter((event) => event.type !== 'text_delta' && event.type !== 'usage')).toEqual(
      [
        { type: 'tool_call', call },
        { type: 'stop', reason: 'tool_use' },
      ],
    );
    const history: Message[] = [
      ...first.messages,
      { role: 'assistant', text: 'Let me look.', toolCalls: [call] },
      {
        role: 'tool',
        results: [{ toolCallId: 'tooluse_abc123', content: 'export const app = 1;' }],
      },
      { role: 'user', text: 'And now?' },
    ];
    const second = await collect(client.stream({ ...first, messages: history }));

    expect(second.at(-1)).toEqual({ type: 'stop', reason: 'end_turn' });
    // The tool result and the next user text share one user turn: Bedrock requires strict alternation.
    expect(bodyOf(fake, 1).messages).toEqual([
      { role: 'user', content: [{ text: 'Check src/app.ts' }] },
      {
        role: 'assistant',
        content: [
          { text: 'Let me look.' },
          {
            toolUse: {
              toolUseId: 'tooluse_abc123',
              name: 'read_file',
              input: { path: 'src/app.ts', lines: [1, 40] },
            },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            toolResult: {
              toolUseId: 'tooluse_abc123',
              content: [{ text: 'export const app = 1;' }],
              status: 'success',
            },
          },
          { text: 'And now?' },
        ],
      },
    ]);
    fake.assertDone();
  });

  it('reads tool calls and a failed tool result through Converse JSON', async () => {
    const fake = await startBedrockFake([reply.toolCall('read_file', { path: 'missing.ts' })]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));
    const messages: Message[] = [
      { role: 'user', text: 'Look' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'tooluse_1', name: 'read_file', arguments: { path: 'a' } }],
      },
      {
        role: 'tool',
        results: [{ toolCallId: 'tooluse_1', content: 'no such file', isError: true }],
      },
    ];

    const result = await client.complete(ask('', { messages, tools: [READ_FILE] }));

    expect(result.toolCalls).toEqual([
      { id: 'tooluse_fake1_0', name: 'read_file', arguments: { path: 'missing.ts' } },
    ]);
    expect(result.stopReason).toBe('tool_use');
    const sent = bodyOf(fake, 0).messages as { content: unknown[] }[];
    expect(sent[1]?.content).toEqual([
      { toolUse: { toolUseId: 'tooluse_1', name: 'read_file', input: { path: 'a' } } },
    ]);
    expect(sent[2]?.content).toEqual([
      {
        toolResult: {
          toolUseId: 'tooluse_1',
          content: [{ text: 'no such file' }],
          status: 'error',
        },
      },
    ]);
    fake.assertDone();
  });

  it('reports cache reads and writes, streamed and whole', async () => {
    const usage = {
      inputTokens: 20,
      outputTokens: 8,
      cacheReadTokens: 1500,
      cacheWriteTokens: 300,
    };
    const fake = await startBedrockFake([reply.text('cached', usage), reply.text('cached', usage)]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const streamed = await collect(client.stream(ask('Again')));
    const whole = await client.complete(ask('Again'));

    expect(streamed).toContainEqual({ type: 'usage', usage });
    expect(whole.usage).toEqual(usage);
    fake.assertDone();
  });

  it('places cache points where the hints ask, for a Claude model', async () => {
    const fake = await startBedrockFake([reply.text('ok')]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    await client.complete(
      ask('Hi', { tools: [READ_FILE], cache: { system: true, tools: true, lastMessage: true } }),
    );

    const body = bodyOf(fake, 0);
    const cachePoint = { cachePoint: { type: 'default' } };
    expect(body.system).toEqual([{ text: 'You audit code.' }, cachePoint]);
    expect((body.toolConfig as { tools: unknown[] }).tools.at(-1)).toEqual(cachePoint);
    expect(body.messages).toEqual([{ role: 'user', content: [{ text: 'Hi' }, cachePoint] }]);
    fake.assertDone();
  });

  it('leaves out cache points and thinking for a model family without them', async () => {
    const fake = await startBedrockFake([reply.text('ok')]);
    const client = createBedrockClient(
      bedrockRef('meta.llama3-70b-instruct-v1:0'),
      settingsFor(fake),
    );

    await client.complete(
      ask('Hi', {
        tools: [READ_FILE],
        cache: { system: true, tools: true, lastMessage: true },
        reasoningBudgetTokens: 2048,
      }),
    );

    expect(JSON.stringify(bodyOf(fake, 0))).not.toContain('cachePoint');
    expect(bodyOf(fake, 0)).not.toHaveProperty('additionalModelRequestFields');
    fake.assertDone();
  });

  it('sends documents with names Bedrock accepts and their bytes in base64', async () => {
    const fake = await startBedrockFake([reply.text('read them')]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));
    const pdf = Buffer.from('%PDF-1.4 fake').toString('base64');

    await client.complete(
      ask('', {
        messages: [
          {
            role: 'user',
            text: 'Summarise these.',
            documents: [
              { name: 'src/app.ts', format: 'txt', data: 'const a = 1;' },
              { name: 'src/app.ts', format: 'md', data: '# again' },
              { name: 'report_2024.pdf', format: 'pdf', data: pdf },
            ],
          },
        ],
      }),
    );

    const [message] = bodyOf(fake, 0).messages as { content: unknown[] }[];
    expect(message?.content).toEqual([
      {
        document: {
          name: 'src-app-ts',
          format: 'txt',
          source: { bytes: Buffer.from('const a = 1;').toString('base64') },
        },
      },
      {
        document: {
          name: 'src-app-ts (2)',
          format: 'md',
          source: { bytes: Buffer.from('# again').toString('base64') },
        },
      },
      { document: { name: 'report-2024-pdf', format: 'pdf', source: { bytes: pdf } } },
      { text: 'Summarise these.' },
    ]);
    fake.assertDone();
  });

  it('maps the stop reasons', async () => {
    const fake = await startBedrockFake([
      { kind: 'answer', text: 'cut', stopReason: 'max_tokens' },
      { kind: 'answer', text: 'end', stopReason: 'stop_sequence' },
    ]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    expect((await client.complete(ask('a'))).stopReason).toBe('max_tokens');
    expect((await collect(client.stream(ask('b')))).at(-1)).toEqual({
      type: 'stop',
      reason: 'stop_sequence',
    });
    fake.assertDone();
  });

  it('sends exactly this Converse request', async () => {
    const fake = await startBedrockFake([reply.text('ok')]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));
    const thought = 'The file is short.';
    const request: ModelRequest = {
      system: 'You audit code.',
      messages: [
        {
          role: 'user',
          text: 'Check it',
          documents: [{ name: 'notes.md', format: 'md', data: '# Notes' }],
        },
        {
          role: 'assistant',
          text: '',
          toolCalls: [{ id: 'tooluse_1', name: 'read_file', arguments: { path: 'a.ts' } }],
          // Budgeted thinking in a tool loop needs the loop's reasoning back first, signed as issued.
          thinking: [
            {
              type: 'thinking',
              source: 'bedrock',
              text: thought,
              signature: fake.ledger.sign(thought),
            },
          ],
        },
        { role: 'tool', results: [{ toolCallId: 'tooluse_1', content: '' }] },
      ],
      tools: [READ_FILE],
      maxTokens: 4096,
      temperature: 0.2,
      cache: { system: true, tools: true },
      reasoningBudgetTokens: 2048,
    };

    await collect(client.stream(request));

    const recorded = stableRequest(fake.modelCalls[0]);
    expect(
      JSON.parse(JSON.stringify(recorded).replaceAll(fake.ledger.sign(thought), '<signature>')),
    ).toMatchSnapshot();
    fake.assertDone();
  });

  it('keeps the temperature when no reasoning budget is set', async () => {
    const fake = await startBedrockFake([reply.text('ok')]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    await client.complete(ask('Hi', { temperature: 0.3 }));

    expect(bodyOf(fake, 0).inferenceConfig).toEqual({ maxTokens: 512, temperature: 0.3 });
    fake.assertDone();
  });

  it('refuses an empty region before any request', async () => {
    const fake = await startBedrockFake([]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake, { region: ' ' }));

    const error = await rejectionOf(client.complete(ask('Hi')));

    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      kind: 'bad_request',
      hint: expect.stringContaining('AWS_REGION'),
    });
    expect(fake.requests).toEqual([]);
    fake.assertDone();
  });
});
