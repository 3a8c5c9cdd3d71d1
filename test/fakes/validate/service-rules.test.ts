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
  ])('refuses %s', (_name, mutate, message) => {
    cases++;
    expect(checkOpenAiRequest(base())).toBeUndefined();
    expect(checkOpenAiRequest(mutate(base()))?.message).toMatch(message);
  });
});
