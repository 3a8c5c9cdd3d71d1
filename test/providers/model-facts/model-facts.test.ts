import { describe, expect, it } from 'vitest';
import {
  invokableBedrockIds,
  modelFactsFor,
  needsInferenceProfile,
} from '../../../src/providers/model-facts/model-facts-for.js';
import {
  MIN_THINKING_BUDGET_TOKENS,
  planOutputTokens,
} from '../../../src/providers/model-facts/plan-output-tokens.js';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';
import type { Message, ThinkingPart } from '../../../src/providers/types.js';

const facts = (id: string) => modelFactsFor(parseModelId(id));
const ask = (maxTokens: number, reasoningBudgetTokens?: number) => ({
  system: '',
  messages: [],
  maxTokens,
  ...(reasoningBudgetTokens === undefined ? {} : { reasoningBudgetTokens }),
});

describe('model facts', () => {
  it.each([
    ['anthropic::claude-sonnet-5', 'adaptive'],
    ['anthropic::claude-opus-4-7', 'adaptive'],
    ['anthropic::claude-sonnet-4-5', 'budgeted'],
    ['bedrock::us.anthropic.claude-haiku-4-5-20251001-v1:0', 'budgeted'],
    ['anthropic::claude-3-5-haiku', 'none'],
    ['openai::o3', 'always'],
    ['openai::gpt-4o', 'none'],
    ['local-8080::qwen3', 'none'],
  ])('%s thinks %s', (id, kind) => {
    expect(facts(id).thinking).toBe(kind);
  });

  it('knows Bedrock differences: Claude 3 Haiku has no caching there, Llama no status or streaming tools', () => {
    expect(facts('bedrock::anthropic.claude-3-haiku-20240307-v1:0').promptCache).toBe(false);
    expect(facts('anthropic::claude-3-haiku-20240307').promptCache).toBe(true);
    const llama = facts('bedrock::meta.llama3-1-70b-instruct-v1:0');
    expect(llama).toMatchObject({
      toolResultStatus: false,
      streamingToolUse: false,
      promptCache: false,
    });
    expect(facts('bedrock::amazon.nova-pro-v1:0')).toMatchObject({
      toolResultStatus: true,
      promptCache: true,
    });
  });

  it('carries the price and the config override', () => {
    expect(facts('anthropic::claude-haiku-4-5').price).toBeDefined();
    const ref = {
      ...parseModelId('openai::my-model'),
      facts: { contextWindow: 50_000, maxOutputTokens: 2_000 },
    };
    expect(modelFactsFor(ref)).toMatchObject({ contextWindow: 50_000, maxOutputTokens: 2_000 });
  });

  it('names the inference profiles a bare id needs', () => {
    const bare = parseModelId('bedrock::anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(needsInferenceProfile(bare)).toBe(true);
    expect(
      needsInferenceProfile(parseModelId('bedrock::us.anthropic.claude-sonnet-4-5-20250929-v1:0')),
    ).toBe(false);
    expect(invokableBedrockIds(bare)).toContain(
      'bedrock::us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    );
  });
});

describe('planOutputTokens', () => {
  it('adds a budget on top of the answer, at least the minimum', () => {
    expect(planOutputTokens(facts('anthropic::claude-sonnet-4-5'), ask(8192, 100))).toEqual({
      maxTokens: 8192 + MIN_THINKING_BUDGET_TOKENS,
      thinking: { type: 'enabled', budgetTokens: MIN_THINKING_BUDGET_TOKENS },
    });
  });

  it('keeps the budget below max_tokens and within the model limit', () => {
    const plan = planOutputTokens(facts('anthropic::claude-opus-4-1'), ask(30_000, 20_000));
    expect(plan.maxTokens).toBe(32_000);
    expect(plan.thinking).toEqual({ type: 'enabled', budgetTokens: 20_000 });
    const squeezed = planOutputTokens(facts('anthropic::claude-opus-4-1'), ask(32_000, 20_000));
    expect(squeezed.thinking?.type === 'enabled' && squeezed.thinking.budgetTokens).toBeLessThan(
      squeezed.maxTokens,
    );
  });

  it('never sends a budget to adaptive models, and gives a 1-token probe room to think', () => {
    const plan = planOutputTokens(facts('anthropic::claude-sonnet-5'), ask(1));
    expect(plan.thinking).toBeUndefined();
    expect(plan.maxTokens).toBeGreaterThan(1024);
    expect(planOutputTokens(facts('anthropic::claude-sonnet-5'), ask(1, 4000)).thinking).toEqual({
      type: 'adaptive',
    });
  });

  it('leaves budgeted thinking off for a tool loop whose last turn has none from that service', () => {
    const loop = (thinking: ThinkingPart[]): Message[] => [
      { role: 'user', text: 'go' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 't1', name: 'list', arguments: {} }],
        ...(thinking.length > 0 ? { thinking } : {}),
      },
      { role: 'tool', results: [{ toolCallId: 't1', content: 'ok' }] },
    ];
    const sonnet = facts('anthropic::claude-sonnet-4-5');
    const request = (messages: Message[]) => ({ ...ask(4096, 2048), messages });
    const signed: ThinkingPart = {
      type: 'thinking',
      source: 'anthropic',
      text: 'x',
      signature: 's',
    };
    expect(planOutputTokens(sonnet, request(loop([])), 'anthropic').thinking).toBeUndefined();
    expect(planOutputTokens(sonnet, request(loop([signed])), 'bedrock').thinking).toBeUndefined();
    // Control: the same loop with its own service's thinking keeps the budget.
    expect(planOutputTokens(sonnet, request(loop([signed])), 'anthropic').thinking).toEqual({
      type: 'enabled',
      budgetTokens: 2048,
    });
  });

  it('clamps to the model output limit when it cannot think', () => {
    expect(planOutputTokens(facts('anthropic::claude-3-haiku'), ask(8192, 4000))).toEqual({
      maxTokens: 4096,
    });
  });
});
