import { describe, expect, it } from 'vitest';
import { isReasoningModel } from '../../../src/providers/openai/to-openai-request.js';

describe('isReasoningModel', () => {
  it.each(['o1', 'o3', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5-mini'])(
    '%s takes max_completion_tokens',
    (model) => {
      expect(isReasoningModel({ provider: 'openai', model, id: `openai::${model}` })).toBe(true);
    },
  );

  it.each(['gpt-4o', 'gpt-4.1-mini', 'openai/o3-mini', 'llama3.2:3b', 'olmo-2', 'qwen3'])(
    '%s takes max_tokens',
    (model) => {
      expect(isReasoningModel({ provider: 'openai', model, id: `openai::${model}` })).toBe(false);
    },
  );
});
