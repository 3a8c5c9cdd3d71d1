import { randomInt } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfigFile } from '../../src/config/load-config.js';
import { mergeConfig } from '../../src/config/merge-config.js';
import { withConfiguredFacts } from '../../src/providers/model-facts/configured-models.js';
import { modelFactsFor } from '../../src/providers/model-facts/model-facts-for.js';
import { parseModelId } from '../../src/providers/model-id/parse-model-id.js';
import { priceFor } from '../../src/providers/pricing/price-for.js';

/** `models` in the config: the user's file describes models; a repository's file may not. */
let cases = 0;
afterAll(() => console.log(`config models: ${cases} cases`));

const MODEL = 'local-8080::house-model';
const dir = mkdtempSync(path.join(tmpdir(), 'oy-config-models-'));

function writeConfig(value: unknown): string {
  const file = path.join(dir, `config-${randomInt(1e9)}.json`);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

describe('the models key', () => {
  it('reads every fact a user may give, and a price makes an unknown model priced', async () => {
    cases++;
    const file = writeConfig({
      models: {
        [MODEL]: {
          contextWindow: 65_536,
          maxOutputTokens: 8192,
          price: { input: 0.5, output: 2 },
          promptCache: true,
          minCacheableTokens: 2048,
          thinking: 'budgeted',
          streamingToolUse: false,
          toolResultStatus: true,
          inferenceProfileRequired: false,
          local: false,
        },
      },
    });
    const values = await readConfigFile(file);
    const { config } = mergeConfig([{ kind: 'user', source: file, values: values! }]);
    const bare = parseModelId(MODEL);
    expect(priceFor(bare)).toBeUndefined();
    const ref = withConfiguredFacts(bare, config.models);
    // Cache rates default to the dearer side: writes at 1.25 times input, reads at the input price.
    expect(priceFor(ref)).toEqual({ input: 0.5, output: 2, cacheWrite: 0.625, cacheRead: 0.5 });
    expect(modelFactsFor(ref)).toMatchObject({
      contextWindow: 65_536,
      maxOutputTokens: 8192,
      minCacheableTokens: 2048,
      thinking: 'budgeted',
      streamingToolUse: false,
      toolResultStatus: true,
      isLocal: false,
    });
  });

  it('matches keys as canonical ids and leaves other models alone', () => {
    cases++;
    const models = { 'claude-sonnet-4-5': { contextWindow: 50_000 } };
    expect(
      modelFactsFor(withConfiguredFacts(parseModelId('anthropic::claude-sonnet-4-5'), models))
        .contextWindow,
    ).toBe(50_000);
    expect(
      modelFactsFor(withConfiguredFacts(parseModelId('anthropic::claude-haiku-4-5'), models))
        .contextWindow,
    ).toBe(200_000);
    // The table's facts stay where the config says nothing.
    expect(
      modelFactsFor(withConfiguredFacts(parseModelId('claude-sonnet-4-5'), models)).thinking,
    ).toBe('budgeted');
  });

  it.each([
    [{ models: { 'nosuch::m': {} } }, /models\.nosuch::m: .*unknown provider/],
    [
      { models: { [MODEL]: { thinking: 'sometimes' } } },
      /models\.local-8080::house-model\.thinking/,
    ],
    [{ models: { [MODEL]: { price: { input: -1, output: 1 } } } }, /price\.input/],
    [{ models: { [MODEL]: { contextWindow: 10 } } }, /contextWindow/],
    [{ models: { [MODEL]: { window: 1 } } }, /window|Unrecognized/],
  ])('refuses %j naming the key', async (value, message) => {
    cases++;
    await expect(readConfigFile(writeConfig(value))).rejects.toThrow(message);
  });
});

describe('a project file cannot set models', () => {
  // Generated per run, so no fixed value can make the assertions pass by accident.
  const lowPrice = randomInt(1, 1000) / 1e6;
  const project = {
    models: { [MODEL]: { price: { input: lowPrice, output: lowPrice }, local: true } },
  };

  it('drops the entry with a warning: the model stays unpriced and not local', () => {
    cases++;
    const { config, warnings } = mergeConfig([
      { kind: 'project', source: '/repo/.oy/config.json', values: project },
    ]);
    const ref = withConfiguredFacts(parseModelId('openai::house-model'), config.models);
    expect(config.models).toEqual({});
    expect(priceFor(withConfiguredFacts(parseModelId(MODEL), config.models))).toBeUndefined();
    expect(modelFactsFor(ref).isLocal).toBe(false);
    expect(warnings.join('\n')).toMatch(/"models" is ignored in a project file/);
  });

  it('a project entry cannot lower the price the user gave (the user keeps theirs)', () => {
    cases++;
    const { config } = mergeConfig([
      { kind: 'project', source: '/repo/.oy/config.json', values: project },
      {
        kind: 'user',
        source: 'user.json',
        values: { models: { [MODEL]: { price: { input: 3, output: 15 } } } },
      },
    ]);
    expect(priceFor(withConfiguredFacts(parseModelId(MODEL), config.models))?.input).toBe(3);
  });

  it('control: the same entry in the user file takes effect', () => {
    cases++;
    const { config } = mergeConfig([{ kind: 'user', source: 'user.json', values: project }]);
    const ref = withConfiguredFacts(parseModelId(MODEL), config.models);
    expect(priceFor(ref)?.input).toBe(lowPrice);
    expect(modelFactsFor(ref).isLocal).toBe(true);
  });
});
