import { describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../../src/providers/openai/create-openai-client.js';
import type { ModelRequest } from '../../../src/providers/types.js';
import { reply } from '../../fakes/script.js';
import { openAiRef, settingsFor, stableRequest, startOpenAiFake } from './openai-fixture.js';

const REQUEST: ModelRequest = {
  system: 'You are oy, a careful code auditor.',
  messages: [
    {
      role: 'user',
      text: 'Audit the attached notes.',
      documents: [{ name: 'notes "v2".md', format: 'md', data: '# Notes\nUse HTTPS.' }],
    },
    {
      role: 'assistant',
      text: 'Reading the config first.',
      toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'config.json' } }],
    },
    { role: 'tool', results: [{ toolCallId: 'call_1', content: '{"ok":true,"text":"{}"}' }] },
    {
      role: 'assistant',
      text: '',
      toolCalls: [{ id: 'call_2', name: 'read_file', arguments: '{"path": ' }],
    },
    {
      role: 'tool',
      results: [
        {
          toolCallId: 'call_2',
          content: '{"ok":false,"error":"arguments are not valid JSON"}',
          isError: true,
        },
      ],
    },
  ],
  tools: [
    {
      name: 'read_file',
      description: 'Read a workspace file.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
        additionalProperties: false,
      },
    },
  ],
  maxTokens: 4_096,
  temperature: 0,
  cache: { system: true, tools: true, lastMessage: true },
  reasoningBudgetTokens: 2_048,
};

describe('OpenAI request JSON', () => {
  it.each(['gpt-4o', 'o3'])('%s: exactly what is sent', async (model) => {
    const fake = await startOpenAiFake([reply.text('ok')]);
    const client = createOpenAiClient(openAiRef(model), settingsFor(fake));

    await client.complete(REQUEST);

    expect(stableRequest(fake.modelCalls[0])).toMatchSnapshot();
    fake.assertDone();
  });
});
