import { describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../../src/providers/openai/create-openai-client.js';
import type { Message, ModelRequest, ToolDefinition } from '../../../src/providers/types.js';
import { reply } from '../../fakes/script.js';
import { bodyOf, collect, openAiRef, settingsFor, startOpenAiFake } from './openai-fixture.js';

const READ_FILE: ToolDefinition = {
  name: 'read_file',
  description: 'Read a file in the workspace.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const GREP: ToolDefinition = {
  name: 'grep',
  description: 'Search the workspace.',
  inputSchema: {
    type: 'object',
    properties: { pattern: { type: 'string' } },
    required: ['pattern'],
  },
};

describe('OpenAI tool calls', () => {
  it('assembles two streamed tool calls and round-trips their results', async () => {
    const fake = await startOpenAiFake([
      {
        kind: 'answer',
        text: 'Let me look.',
        toolCalls: [
          { name: 'read_file', arguments: { path: 'src/ä.ts' } },
          { name: 'grep', arguments: { pattern: 'TODO\\b', flags: ['i'] } },
        ],
      },
      reply.text('Both files are fine.'),
    ]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));
    const messages: Message[] = [{ role: 'user', text: 'Audit src.' }];
    const request = (): ModelRequest => ({
      system: 'You audit code.',
      messages,
      tools: [READ_FILE, GREP],
      maxTokens: 500,
    });

    const events = await collect(client.stream(request()));

    const calls = events.flatMap((event) => (event.type === 'tool_call' ? [event.call] : []));
    expect(calls).toEqual([
      { id: 'call_fake_1_0', name: 'read_file', arguments: { path: 'src/ä.ts' } },
      { id: 'call_fake_1_1', name: 'grep', arguments: { pattern: 'TODO\\b', flags: ['i'] } },
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'text_delta',
      'text_delta',
      'text_delta',
      'tool_call',
      'tool_call',
      'usage',
      'stop',
    ]);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'tool_use' });

    messages.push(
      { role: 'assistant', text: 'Let me look.', toolCalls: calls },
      {
        role: 'tool',
        results: [
          { toolCallId: 'call_fake_1_0', content: 'export const a = 1;' },
          {
            toolCallId: 'call_fake_1_1',
            content: '{"ok":false,"error":"bad pattern"}',
            isError: true,
          },
        ],
      },
    );
    const second = await client.complete(request());

    expect(second.text).toBe('Both files are fine.');
    expect(bodyOf(fake, 1)['messages']).toEqual([
      { role: 'system', content: 'You audit code.' },
      { role: 'user', content: 'Audit src.' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          {
            id: 'call_fake_1_0',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"src/ä.ts"}' },
          },
          {
            id: 'call_fake_1_1',
            type: 'function',
            function: { name: 'grep', arguments: '{"pattern":"TODO\\\\b","flags":["i"]}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_fake_1_0', content: 'export const a = 1;' },
      {
        role: 'tool',
        tool_call_id: 'call_fake_1_1',
        content: '{"ok":false,"error":"bad pattern"}',
      },
    ]);
    fake.assertDone();
  });

  it('sends an assistant turn with only tool calls as null content', async () => {
    const fake = await startOpenAiFake([
      reply.toolCall('read_file', { path: 'a' }),
      reply.text('done'),
    ]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));
    const messages: Message[] = [{ role: 'user', text: 'go' }];

    const first = await client.complete({
      system: '',
      messages,
      tools: [READ_FILE],
      maxTokens: 50,
    });
    messages.push(
      { role: 'assistant', text: first.text, toolCalls: first.toolCalls },
      { role: 'tool', results: [{ toolCallId: 'call_fake_1_0', content: 'x' }] },
    );
    await client.complete({ system: '', messages, tools: [READ_FILE], maxTokens: 50 });

    expect(first.text).toBe('');
    expect(bodyOf(fake, 1)['messages']).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_fake_1_0',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_fake_1_0', content: 'x' },
    ]);
    fake.assertDone();
  });
});
