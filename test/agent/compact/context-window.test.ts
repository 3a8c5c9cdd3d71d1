import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HOSTED_CONTEXT_TOKENS,
  DEFAULT_LOCAL_CONTEXT_TOKENS,
  contextWindowFor,
} from '../../../src/agent/compact/context-window.js';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';

describe('contextWindowFor', () => {
  it.each([
    ['claude-opus-4-1', 200_000],
    ['claude-sonnet-4-5', 200_000],
    ['anthropic::claude-haiku-4-5-20251001', 200_000],
    ['bedrock::us.anthropic.claude-sonnet-4-5-20250929-v1:0', 200_000],
    ['bedrock::anthropic.claude-3-5-sonnet-20240620-v1:0', 200_000],
    ['openrouter::anthropic/claude-sonnet-4.5', 200_000],
    ['gpt-4o', 128_000],
    ['gpt-4o-mini', 128_000],
    ['gpt-4.1', 1_047_576],
    ['gpt-4.1-mini', 1_047_576],
    ['gpt-5', 400_000],
    ['gpt-5-mini', 400_000],
    ['gpt-5-chat-latest', 128_000],
    ['o3', 200_000],
    ['o4-mini', 200_000],
    ['o1-mini', 128_000],
    ['openrouter::openai/o3-mini', 200_000],
    ['ollama::llama3.1:8b', DEFAULT_LOCAL_CONTEXT_TOKENS],
    ['local-8080::qwen2.5-coder-32b', DEFAULT_LOCAL_CONTEXT_TOKENS],
    ['openrouter::mistralai/mistral-large', DEFAULT_LOCAL_CONTEXT_TOKENS],
    ['local-8080::my-own-model', DEFAULT_LOCAL_CONTEXT_TOKENS],
    ['ollama::something-new', DEFAULT_LOCAL_CONTEXT_TOKENS],
    ['openai::some-future-model', DEFAULT_HOSTED_CONTEXT_TOKENS],
    ['openrouter::vendor/unknown', DEFAULT_HOSTED_CONTEXT_TOKENS],
  ])('%s has %i tokens', (id, tokens) => {
    expect(contextWindowFor(parseModelId(id), null)).toBe(tokens);
  });

  it('lets the config override the table for any model', () => {
    expect(contextWindowFor(parseModelId('claude-sonnet-4-5'), 1_000_000)).toBe(1_000_000);
    expect(contextWindowFor(parseModelId('ollama::llama3.1:8b'), 131_072)).toBe(131_072);
  });

  it('defaults are conservative: local below hosted', () => {
    expect(DEFAULT_LOCAL_CONTEXT_TOKENS).toBeLessThan(DEFAULT_HOSTED_CONTEXT_TOKENS);
  });
});
