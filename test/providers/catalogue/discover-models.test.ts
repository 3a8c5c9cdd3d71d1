import { describe, expect, it } from 'vitest';
import {
  discoverModels,
  displayEndpoint,
  listDiscoveryTargets,
  type ListModels,
} from '../../../src/providers/catalogue/discover-models.js';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';

describe('listDiscoveryTargets', () => {
  it('contacts nothing when nothing is configured', () => {
    expect(listDiscoveryTargets({}, null)).toEqual([]);
    expect(listDiscoveryTargets({}, parseModelId('claude-haiku-4-5'))).toEqual([]);
  });

  it('asks OpenAI and OpenRouter when their keys are set, and the local or Ollama endpoint in use', () => {
    const targets = listDiscoveryTargets(
      { OPENAI_API_KEY: 'k', OPENROUTER_API_KEY: 'r' },
      parseModelId('local-8080::m'),
    );
    expect(targets.map((target) => [target.prefix, target.settings?.baseURL])).toEqual([
      ['openai', 'https://api.openai.com/v1'],
      ['openrouter', 'https://openrouter.ai/api/v1'],
      ['local-8080', 'http://127.0.0.1:8080/v1'],
    ]);
    expect(listDiscoveryTargets({}, parseModelId('ollama::llama3'))[0]?.settings?.baseURL).toBe(
      'http://127.0.0.1:11434/v1',
    );
  });

  it('lists an endpoint once', () => {
    const targets = listDiscoveryTargets({ OPENAI_API_KEY: 'k' }, parseModelId('openai::gpt-4o'));
    expect(targets).toHaveLength(1);
  });

  it('keeps a bad base URL as a one-line problem', () => {
    const [target] = listDiscoveryTargets(
      { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'nonsense' },
      null,
    );
    expect(target).toMatchObject({ settings: null, setupError: 'OPENAI_BASE_URL is not a URL' });
  });
});

describe('discoverModels', () => {
  it('prefixes discovered ids and reports failures as one line', async () => {
    const calls: Array<[string, number]> = [];
    const listModels: ListModels = async (settings, options) => {
      calls.push([settings.baseURL, options.timeoutMs]);
      if (settings.baseURL.includes('8080')) return ['qwen', 'llama'];
      throw new Error('listing models at http://127.0.0.1:11434/v1: nothing answered');
    };
    const targets = [
      ...listDiscoveryTargets({}, parseModelId('local-8080::qwen')),
      ...listDiscoveryTargets({}, parseModelId('ollama::x')),
      ...listDiscoveryTargets({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'ftp://x' }, null),
    ];
    expect(await discoverModels(targets, { listModels })).toEqual([
      {
        provider: 'local',
        endpoint: 'http://127.0.0.1:8080/v1',
        models: ['local-8080::qwen', 'local-8080::llama'],
        error: null,
      },
      {
        provider: 'ollama',
        endpoint: 'http://127.0.0.1:11434/v1',
        models: [],
        error: 'listing models at http://127.0.0.1:11434/v1: nothing answered',
      },
      {
        provider: 'openai',
        endpoint: '(not configured)',
        models: [],
        error: expect.stringContaining('OPENAI_BASE_URL'),
      },
    ]);
    expect(calls.map(([, timeout]) => timeout)).toEqual([5000, 5000]);
  });

  it('shows endpoints without credentials or query', () => {
    expect(displayEndpoint('https://user:pw@example.com/v1/?key=s')).toBe('https://example.com/v1');
  });
});
