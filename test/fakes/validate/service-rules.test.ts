import { afterAll, describe, expect, it } from 'vitest';
import { ThinkingLedger } from '../thinking-ledger.js';
import { checkAnthropicRequest } from './anthropic-rules.js';
import { checkBedrockRequest } from './bedrock-rules.js';
import { checkOpenAiRequest } from './openai-rules.js';

/**
 * The fakes' request rules, each shown to refuse a request the service refuses, beside a control that the
 * same request without the fault passes (so a rule that stopped checking would fail here).
 */
let cases = 0;
afterAll(() => console.log(`fake service rules: ${cases} cases`));

const ledger = new ThinkingLedger();

describe('Anthropic rules', () => {
  const base = () => ({
    model: 'claude-haiku-4-5',
    max_tokens: 64,
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'list', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
    ],
  });
  const block = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };

  it.each<[string, (body: ReturnType<typeof base>) => unknown, RegExp]>([
    [
      'a sampling field the API version does not take',
      (b) => ({ ...b, top_k: 5 }),
      /top_k: Extra inputs/,
    ],
    [
      'max_tokens above the model limit',
      (b) => ({ ...b, max_tokens: 1_000_000 }),
      /maximum allowed number of output tokens/,
    ],
    [
      'a tool_result with no tool_use before it',
      (b) => ({
        ...b,
        messages: [b.messages[0], { role: 'assistant', content: 'ok' }, b.messages[2]],
      }),
      /unexpected `tool_use_id`/,
    ],
    [
      'a tool_use left unanswered',
      (b) => ({ ...b, messages: [...b.messages.slice(0, 2), { role: 'user', content: 'next' }] }),
      /without `tool_result` blocks/,
    ],
    [
      'text before the tool_result blocks',
      (b) => ({
        ...b,
        messages: [
          ...b.messages.slice(0, 2),
          {
            role: 'user',
            content: [
              { type: 'text', text: 'first' },
              { type: 'tool_result', tool_use_id: 't1', content: 'ok' },
            ],
          },
        ],
      }),
      /tool_result blocks must come first/,
    ],
    [
      'more than 4 cache breakpoints',
      (b) => ({
        ...b,
        system: [block, block, block],
        messages: [{ role: 'user', content: [block, block] }],
      }),
      /cache_control/,
    ],
    [
      'a budget below 1,024 tokens',
      (b) => ({
        ...b,
        model: 'claude-sonnet-4-5',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 500 },
      }),
      /budget_tokens/,
    ],
    [
      'the budget form on an adaptive-only model',
      (b) => ({
        ...b,
        model: 'claude-opus-4-7',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
      }),
      /thinking/,
    ],
  ])('refuses %s', (_name, mutate, message) => {
    cases++;
    expect(checkAnthropicRequest(base(), ledger)).toBeUndefined();
    expect(checkAnthropicRequest(mutate(base()), ledger)?.message).toMatch(message);
  });
});

describe('Anthropic rules: thinking and turn shape', () => {
  const thought = 'I should list.';
  const thinking = () => ({ type: 'thinking', thinking: thought, signature: ledger.sign(thought) });
  ledger.recordToolCalls(['s1'], 1);
  const tool = { name: 'list', input_schema: { type: 'object' } };
  const base = () => ({
    model: 'claude-sonnet-5',
    max_tokens: 20_000,
    tools: [tool],
    messages: [
      { role: 'user', content: 'hi' } as Record<string, unknown>,
      {
        role: 'assistant',
        content: [thinking(), { type: 'tool_use', id: 's1', name: 'list', input: {} }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 's1', content: 'ok' }] },
    ],
  });
  const withAssistant = (b: ReturnType<typeof base>, content: unknown[]) => ({
    ...b,
    messages: [b.messages[0], { role: 'assistant', content }, b.messages[2]],
  });

  it.each<[string, (body: ReturnType<typeof base>) => unknown, RegExp]>([
    [
      'a request ending in an assistant turn (prefill) on Claude 4.6 and later',
      (b) => ({ ...b, messages: [...b.messages, { role: 'assistant', content: 'Sure' }] }),
      /does not support assistant message prefill/,
    ],
    [
      'tool_choice forcing a tool while the model thinks by default',
      (b) => ({ ...b, tool_choice: { type: 'any' } }),
      /tool_choice forces tool use/,
    ],
    [
      'thinking after text in an assistant turn',
      (b) =>
        withAssistant(b, [
          { type: 'text', text: 'Listing.' },
          thinking(),
          { type: 'tool_use', id: 's1', name: 'list', input: {} },
        ]),
      /the first block must be `thinking`/,
    ],
    [
      'an assistant turn that ends in thinking',
      (b) => ({
        ...b,
        messages: [
          ...b.messages,
          { role: 'assistant', content: [thinking()] },
          { role: 'user', content: 'next' },
        ],
      }),
      /final block in an assistant message cannot be `thinking`/,
    ],
    [
      'a tool loop whose thinking was dropped',
      (b) => withAssistant(b, [{ type: 'tool_use', id: 's1', name: 'list', input: {} }]),
      /must start with a thinking block/,
    ],
    [
      'a thinking text changed after signing',
      (b) =>
        withAssistant(b, [
          { ...thinking(), thinking: `${thought} (edited)` },
          { type: 'tool_use', id: 's1', name: 'list', input: {} },
        ]),
      /Invalid `signature`/,
    ],
    [
      'a tool name with a dot',
      (b) => ({ ...b, tools: [{ ...tool, name: 'srv.list' }] }),
      /String should match pattern/,
    ],
    ['two tools of one name', (b) => ({ ...b, tools: [tool, tool] }), /Tool names must be unique/],
    [
      'thinking turned off on a model that always thinks',
      (b) => ({ ...b, model: 'claude-mythos-preview', thinking: { type: 'disabled' } }),
      /"thinking.type.disabled" is not supported/,
    ],
  ])('refuses %s', (_name, mutate, message) => {
    cases++;
    expect(checkAnthropicRequest(base(), ledger)).toBeUndefined();
    expect(checkAnthropicRequest(mutate(base()), ledger)?.message).toMatch(message);
  });

  it('takes both thinking forms on Claude 4.6, only the budget form on 4.5, and max_tokens 0', () => {
    cases++;
    const ask = (model: string, thinkingField: unknown) =>
      checkAnthropicRequest(
        {
          model,
          max_tokens: 4096,
          thinking: thinkingField,
          messages: [{ role: 'user', content: 'hi' }],
        },
        ledger,
      )?.message;
    const enabled = { type: 'enabled', budget_tokens: 2048 };
    expect(ask('claude-opus-4-6', enabled)).toBeUndefined();
    expect(ask('claude-opus-4-6', { type: 'adaptive' })).toBeUndefined();
    expect(ask('claude-opus-4-5', enabled)).toBeUndefined();
    expect(ask('claude-opus-4-5', { type: 'adaptive' })).toMatch(/adaptive" is not supported/);
    expect(
      checkAnthropicRequest(
        { model: 'claude-haiku-4-5', max_tokens: 0, messages: [{ role: 'user', content: 'hi' }] },
        ledger,
      ),
    ).toBeUndefined();
  });

  it('requires thinking first in a budgeted tool loop even when the fake issued none', () => {
    cases++;
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'b1', name: 'list', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b1', content: 'ok' }] },
      ],
    };
    expect(checkAnthropicRequest(body, ledger)?.message).toMatch(
      /must start with a thinking block/,
    );
    // Control: without the thinking field, the same loop is fine.
    expect(checkAnthropicRequest({ ...body, thinking: undefined }, ledger)).toBeUndefined();
  });
});

describe('Bedrock rules', () => {
  const documents = (names: string[]) => ({
    messages: [
      {
        role: 'user',
        content: [
          ...names.map((name) => ({
            document: { name, format: 'txt', source: { bytes: 'eA==' } },
          })),
          { text: 'Read these.' },
        ],
      },
    ],
  });
  const check = (modelId: string, body: unknown, isStream = false) =>
    checkBedrockRequest(modelId, isStream, body, ledger)?.message;
  const CLAUDE = 'us.anthropic.claude-haiku-4-5-20251001-v1:0';

  it('refuses a sixth document, and takes five (control)', () => {
    cases++;
    expect(check(CLAUDE, documents(['a', 'b', 'c', 'd', 'e']))).toBeUndefined();
    expect(check(CLAUDE, documents(['a', 'b', 'c', 'd', 'e', 'f']))).toMatch(/at most 5 documents/);
  });

  it.each([['notes.txt'], ['two  spaces'], ['src/app']])('refuses the document name %j', (name) => {
    cases++;
    expect(check(CLAUDE, documents(['notes txt (2) [x]']))).toBeUndefined();
    expect(check(CLAUDE, documents([name]))).toMatch(/document file name/);
  });

  it('refuses a duplicate document name', () => {
    cases++;
    expect(check(CLAUDE, documents(['a', 'a']))).toMatch(/Duplicate document names/);
  });

  it('refuses toolResult.status for Llama and tools in its stream; Claude takes both (control)', () => {
    cases++;
    const body = {
      messages: [
        { role: 'user', content: [{ text: 'hi' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'list', input: {} } }] },
        {
          role: 'user',
          content: [
            { toolResult: { toolUseId: 't1', content: [{ text: 'ok' }], status: 'success' } },
          ],
        },
      ],
      toolConfig: { tools: [{ toolSpec: { name: 'list', inputSchema: { json: {} } } }] },
    };
    expect(check(CLAUDE, body, true)).toBeUndefined();
    expect(check('meta.llama3-1-70b-instruct-v1:0', body)).toMatch(/toolResult.status/);
    expect(check('meta.llama3-1-70b-instruct-v1:0', body, true)).toMatch(/streaming mode/);
  });

  it('refuses a bare id of a profile-only model, naming the inference profile', () => {
    cases++;
    expect(check('anthropic.claude-haiku-4-5-20251001-v1:0', documents([]))).toMatch(
      /inference profile/,
    );
  });
});

describe('Bedrock rules: per-model fields, thinking and turn shape', () => {
  const SONNET_5 = 'global.anthropic.claude-sonnet-5';
  const thought = 'I should list.';
  ledger.recordToolCalls(['b5'], 1);
  const reasoning = () => ({
    reasoningContent: { reasoningText: { text: thought, signature: ledger.sign(thought) } },
  });
  const toolUse = (input: unknown = {}, toolUseId = 'b5') => ({
    toolUse: { toolUseId, name: 'list', input },
  });
  const base = () => ({
    system: [{ text: 'sys' }, { cachePoint: { type: 'default' } }] as unknown[],
    inferenceConfig: { maxTokens: 20_000 } as Record<string, unknown>,
    toolConfig: {
      tools: [
        { toolSpec: { name: 'list', inputSchema: { json: { type: 'object' } } } },
        { cachePoint: { type: 'default' } },
      ] as unknown[],
    },
    messages: [
      { role: 'user', content: [{ text: 'hi' }] } as Record<string, unknown>,
      { role: 'assistant', content: [reasoning(), toolUse()] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'b5', content: [{ text: 'ok' }] } }] },
    ],
  });
  const withAssistant = (b: ReturnType<typeof base>, content: unknown[]) => ({
    ...b,
    messages: [b.messages[0], { role: 'assistant', content }, b.messages[2]],
  });
  const check = (body: unknown, modelId = SONNET_5) =>
    checkBedrockRequest(modelId, false, body, ledger)?.message;

  it.each<[string, (body: ReturnType<typeof base>) => unknown, RegExp, string?]>([
    [
      'cache points for Claude 3.5 Sonnet v2 (no Bedrock prompt caching)',
      (b) => ({ ...b, inferenceConfig: { maxTokens: 4096 } }),
      /prompt caching/,
      'anthropic.claude-3-5-sonnet-20241022-v2:0',
    ],
    [
      'a fifth cache point',
      (b) => ({
        ...b,
        system: [
          { text: 'a' },
          ...Array.from({ length: 4 }, () => ({ cachePoint: { type: 'default' } })),
        ],
      }),
      /cache points exceeds the limit of 4/,
    ],
    [
      'a temperature while the model thinks by default',
      (b) => ({ ...b, inferenceConfig: { ...b.inferenceConfig, temperature: 0.2 } }),
      /`temperature` may only be set to 1/,
    ],
    [
      'a low top_p while the model thinks',
      (b) => ({ ...b, inferenceConfig: { ...b.inferenceConfig, topP: 0.5 } }),
      /`top_p` must be greater than or equal to 0.95/,
    ],
    [
      'a tool name with a dot',
      (b) => ({
        ...b,
        toolConfig: { tools: [{ toolSpec: { name: 'srv.list', inputSchema: { json: {} } } }] },
      }),
      /toolSpec.name/,
    ],
    [
      'a toolUseId with a space',
      (b) => ({
        ...withAssistant(b, [reasoning(), toolUse({}, 'b 5')]),
        messages: [
          b.messages[0],
          { role: 'assistant', content: [reasoning(), toolUse({}, 'b 5')] },
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 'b 5', content: [{ text: 'ok' }] } }],
          },
        ],
      }),
      /toolUseId/,
    ],
    [
      'a tool input that is not an object (invalid JSON sent back as text)',
      (b) => withAssistant(b, [reasoning(), toolUse('{"path": ')]),
      /Input should be a valid dictionary/,
    ],
    [
      'reasoning after text',
      (b) => withAssistant(b, [{ text: 'Listing.' }, reasoning(), toolUse()]),
      /the first block must be `thinking`/,
    ],
    [
      'an assistant turn that ends in reasoning',
      (b) => ({
        ...b,
        messages: [
          ...b.messages,
          { role: 'assistant', content: [reasoning()] },
          { role: 'user', content: [{ text: 'next' }] },
        ],
      }),
      /final block in an assistant message cannot be `thinking`/,
    ],
    [
      'a request ending in an assistant turn (prefill)',
      (b) => ({
        ...b,
        messages: [...b.messages, { role: 'assistant', content: [{ text: 'Sure' }] }],
      }),
      /does not support assistant message prefill/,
    ],
    [
      'a toolResult answering no toolUse of the previous turn',
      (b) => ({
        ...b,
        messages: [
          ...b.messages.slice(0, 2),
          {
            role: 'user',
            content: [
              { toolResult: { toolUseId: 'b5', content: [{ text: 'ok' }] } },
              { toolResult: { toolUseId: 'zz', content: [{ text: 'ok' }] } },
            ],
          },
        ],
      }),
      /unexpected `tool_use_id`/,
    ],
  ])('refuses %s', (_name, mutate, message, modelId) => {
    cases++;
    expect(check(base())).toBeUndefined();
    expect(check(mutate(base()), modelId)).toMatch(message);
  });

  it('refuses a document name over 200 characters, and takes 200 (control)', () => {
    cases++;
    const body = (name: string) => ({
      messages: [
        {
          role: 'user',
          content: [
            { document: { name, format: 'txt', source: { bytes: 'eA==' } } },
            { text: 'Read.' },
          ],
        },
      ],
    });
    expect(check(body('a'.repeat(200)))).toBeUndefined();
    expect(check(body('a'.repeat(201)))).toMatch(/length less than or equal to 200/);
  });
});

describe('OpenAI rules', () => {
  const base = () => ({
    model: 'gpt-4o',
    max_tokens: 64,
    messages: [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'list', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ],
  });

  it.each<[string, (body: ReturnType<typeof base>) => unknown, RegExp]>([
    ['max_tokens for a reasoning model', (b) => ({ ...b, model: 'o3' }), /max_completion_tokens/],
    [
      'a temperature for a reasoning model',
      (b) => ({
        ...b,
        model: 'o3',
        max_tokens: undefined,
        max_completion_tokens: 64,
        temperature: 0.2,
      }),
      /temperature/,
    ],
    [
      'a tool message with no tool call before it',
      (b) => ({ ...b, messages: [b.messages[0], b.messages[2]] }),
      /must be a response to a preceeding message/,
    ],
    [
      'a tool call left unanswered',
      (b) => ({ ...b, messages: [...b.messages.slice(0, 2), { role: 'user', content: 'next' }] }),
      /did not have response messages/,
    ],
    [
      'max_tokens above the limit',
      (b) => ({ ...b, max_tokens: 1_000_000 }),
      /max_tokens is too large/,
    ],
    [
      'a function name with a dot',
      (b) => ({
        ...b,
        tools: [{ type: 'function', function: { name: 'srv.list', parameters: {} } }],
      }),
      /does not match pattern/,
    ],
    [
      'reasoning_content sent back in an assistant message',
      (b) => ({
        ...b,
        messages: [
          b.messages[0],
          { ...b.messages[1], reasoning_content: 'I thought' },
          b.messages[2],
        ],
      }),
      /'reasoning_content' was unexpected/,
    ],
  ])('refuses %s', (_name, mutate, message) => {
    cases++;
    expect(checkOpenAiRequest(base(), ledger)).toBeUndefined();
    expect(checkOpenAiRequest(mutate(base()), ledger)?.message).toMatch(message);
  });

  it('DeepSeek in thinking mode refuses a tool loop whose reasoning was not passed back', () => {
    cases++;
    ledger.recordToolCalls(['d1'], 1);
    const loop = (assistant: Record<string, unknown>, model = 'deepseek-v4-flash') => ({
      model,
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'd1', type: 'function', function: { name: 'list', arguments: '{}' } }],
          ...assistant,
        },
        { role: 'tool', tool_call_id: 'd1', content: 'ok' },
      ],
    });
    expect(checkOpenAiRequest(loop({}), ledger)?.message).toMatch(
      /Missing `reasoning_content` field in the assistant message at message index 1/,
    );
    // Controls: with it DeepSeek accepts; another compatible server takes it; without it a plain model is fine.
    expect(checkOpenAiRequest(loop({ reasoning_content: 'why' }), ledger)).toBeUndefined();
    expect(checkOpenAiRequest(loop({ reasoning_content: 'why' }, 'qwen3'), ledger)).toBeUndefined();
    expect(checkOpenAiRequest(loop({}, 'qwen3'), ledger)).toBeUndefined();
  });
});
