import { describe, expect, it } from 'vitest';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';
import { resolveModelId } from '../../../src/providers/model-id/resolve-model-id.js';
import { UsageError } from '../../../src/shared/errors.js';

describe('parseModelId', () => {
  it.each([
    [
      'anthropic::claude-sonnet-4-5',
      'anthropic',
      'claude-sonnet-4-5',
      'anthropic::claude-sonnet-4-5',
    ],
    [
      'anthropic::claude-opus-4-1-20250805',
      'anthropic',
      'claude-opus-4-1-20250805',
      'anthropic::claude-opus-4-1-20250805',
    ],
    ['claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5', 'anthropic::claude-sonnet-4-5'],
    [
      'claude-3-5-haiku-latest',
      'anthropic',
      'claude-3-5-haiku-latest',
      'anthropic::claude-3-5-haiku-latest',
    ],
    ['  claude-haiku-4-5  ', 'anthropic', 'claude-haiku-4-5', 'anthropic::claude-haiku-4-5'],
    ['anthropic::my-proxy-model', 'anthropic', 'my-proxy-model', 'anthropic::my-proxy-model'],
    [
      'bedrock::anthropic.claude-sonnet-4-5-20250929-v1:0',
      'bedrock',
      'anthropic.claude-sonnet-4-5-20250929-v1:0',
      'bedrock::anthropic.claude-sonnet-4-5-20250929-v1:0',
    ],
    [
      'bedrock::us.anthropic.claude-haiku-4-5-20251001-v1:0',
      'bedrock',
      'us.anthropic.claude-haiku-4-5-20251001-v1:0',
      'bedrock::us.anthropic.claude-haiku-4-5-20251001-v1:0',
    ],
    [
      'bedrock::arn:aws:bedrock:us-east-1:123456789012:inference-profile/x',
      'bedrock',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/x',
      'bedrock::arn:aws:bedrock:us-east-1:123456789012:inference-profile/x',
    ],
    ['openai::gpt-4o', 'openai', 'gpt-4o', 'openai::gpt-4o'],
    ['gpt-4o', 'openai', 'gpt-4o', 'openai::gpt-4o'],
    ['gpt-4o-mini', 'openai', 'gpt-4o-mini', 'openai::gpt-4o-mini'],
    ['gpt-4.1-nano', 'openai', 'gpt-4.1-nano', 'openai::gpt-4.1-nano'],
    ['gpt-5', 'openai', 'gpt-5', 'openai::gpt-5'],
    ['o1', 'openai', 'o1', 'openai::o1'],
    ['o1-preview', 'openai', 'o1-preview', 'openai::o1-preview'],
    ['o3', 'openai', 'o3', 'openai::o3'],
    ['o3-mini', 'openai', 'o3-mini', 'openai::o3-mini'],
    ['o4-mini', 'openai', 'o4-mini', 'openai::o4-mini'],
    ['o4-mini-2025-04-16', 'openai', 'o4-mini-2025-04-16', 'openai::o4-mini-2025-04-16'],
    ['openai::my-finetune:ft-123', 'openai', 'my-finetune:ft-123', 'openai::my-finetune:ft-123'],
    ['local-8080::qwen2.5-coder', 'local', 'qwen2.5-coder', 'local-8080::qwen2.5-coder'],
    ['local-1::m', 'local', 'm', 'local-1::m'],
    ['local-65535::m', 'local', 'm', 'local-65535::m'],
    ['ollama::llama3.1:8b', 'ollama', 'llama3.1:8b', 'ollama::llama3.1:8b'],
    [
      'ollama::qwen2.5-coder:32b-instruct-q4_K_M',
      'ollama',
      'qwen2.5-coder:32b-instruct-q4_K_M',
      'ollama::qwen2.5-coder:32b-instruct-q4_K_M',
    ],
    [
      'openrouter::anthropic/claude-sonnet-4.5',
      'openrouter',
      'anthropic/claude-sonnet-4.5',
      'openrouter::anthropic/claude-sonnet-4.5',
    ],
    [
      'openrouter::meta-llama/llama-3.3-70b-instruct:free',
      'openrouter',
      'meta-llama/llama-3.3-70b-instruct:free',
      'openrouter::meta-llama/llama-3.3-70b-instruct:free',
    ],
  ])('%s -> %s', (text, provider, model, id) => {
    const ref = parseModelId(text);
    expect(ref).toMatchObject({ provider, model, id });
  });

  it('records the port of a local id', () => {
    expect(parseModelId('local-11435::x').port).toBe(11435);
    expect(parseModelId('ollama::x').port).toBeUndefined();
  });

  it.each([
    ['', /empty/, undefined],
    ['   ', /empty/, undefined],
    ['anthropic::', /names no model/, undefined],
    ['local-8080::', /names no model/, undefined],
    [
      'antropic::claude-sonnet-4-5',
      /unknown provider "antropic::"/,
      'did you mean anthropic::claude-sonnet-4-5?',
    ],
    ['opnai::gpt-4o', /unknown provider/, 'did you mean openai::gpt-4o?'],
    ['bedrok::x', /unknown provider/, 'did you mean bedrock::x?'],
    ['olama::llama3', /unknown provider/, 'did you mean ollama::llama3?'],
    ['openruoter::x', /unknown provider/, 'did you mean openrouter::x?'],
    ['locl::x', /unknown provider/, undefined],
    ['local::x', /unknown provider/, 'did you mean local-<port>::x?'],
    ['gemini::gemini-2.5-pro', /unknown provider "gemini::"/, undefined],
    ['local-0::m', /port in local-<port>:: must be from 1 to 65535/, undefined],
    ['local-65536::m', /must be from 1 to 65535/, undefined],
    ['local-99999999999999999999::m', /must be from 1 to 65535/, undefined],
    ['local-abc::m', /unknown provider/, 'did you mean local-<port>::m?'],
    ['llama3', /no provider prefix oy can infer/, undefined],
    ['sonnet', /no provider prefix/, undefined],
    ['o2', /no provider prefix/, undefined],
    ['o5-mini', /no provider prefix/, undefined],
    ['o3mini', /no provider prefix/, undefined],
    ['claude', /no provider prefix/, undefined],
    ['gpt', /no provider prefix/, undefined],
    [
      'anthropic:claude-sonnet-4-5',
      /no provider prefix/,
      'did you mean anthropic::claude-sonnet-4-5?',
    ],
    ['claude sonnet', /spaces or control characters/, undefined],
    ['anthropic::claude\u0000x', /control characters/, undefined],
  ])('rejects %j', (text, message, suggestion) => {
    let caught: unknown;
    try {
      parseModelId(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const error = caught as UsageError;
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(message);
    if (text.trim() !== '' && !/\p{Cc}/u.test(text)) expect(error.message).toContain(text.trim());
    if (suggestion) expect(error.hint).toContain(suggestion);
    else expect(error.hint ?? '').not.toContain('did you mean');
  });

  it('lists every prefix in the hint for an unknown id', () => {
    try {
      parseModelId('mistral-large');
      expect.unreachable();
    } catch (error) {
      const hint = (error as UsageError).hint ?? '';
      for (const prefix of [
        'anthropic::',
        'bedrock::',
        'openai::',
        'local-<port>::',
        'ollama::',
        'openrouter::',
      ]) {
        expect(hint).toContain(prefix);
      }
    }
  });
});

describe('resolveModelId', () => {
  it('prefers --model, then OY_MODEL, then the config file', () => {
    expect(resolveModelId({ flag: 'gpt-4o', env: 'o3', config: 'claude-haiku-4-5' })).toEqual({
      ref: { provider: 'openai', model: 'gpt-4o', id: 'openai::gpt-4o' },
      source: '--model',
    });
    expect(resolveModelId({ env: 'o3', config: 'claude-haiku-4-5' })?.source).toBe('OY_MODEL');
    expect(resolveModelId({ env: '', config: 'claude-haiku-4-5' })).toMatchObject({
      source: 'config',
      ref: { id: 'anthropic::claude-haiku-4-5' },
    });
  });

  it('is null when nothing is set', () => {
    expect(resolveModelId({})).toBeNull();
    expect(resolveModelId({ flag: undefined, env: ' ', config: null })).toBeNull();
  });

  it('validates the winning id only', () => {
    expect(() => resolveModelId({ flag: 'nonsense', config: 'claude-haiku-4-5' })).toThrow(
      UsageError,
    );
    expect(resolveModelId({ flag: 'o3', config: 'nonsense' })?.ref.id).toBe('openai::o3');
  });
});
