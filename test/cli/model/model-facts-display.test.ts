import { afterAll, describe, expect, it } from 'vitest';
import { checkModel } from '../../../src/cli/doctor/check-model.js';
import { buildModelListing } from '../../../src/cli/model/build-model-listing.js';
import { renderModelListing } from '../../../src/cli/model/render-model-listing.js';
import { createColors } from '../../../src/cli/terminal.js';
import { resolveModelId } from '../../../src/providers/model-id/resolve-model-id.js';

/** `oy doctor` and `oy model` show the facts requests are built from, and say when the config gave them. */
let cases = 0;
afterAll(() => console.log(`model facts display: ${cases} cases`));

const LOCAL = 'local-8080::house-model';
const MODELS = { [LOCAL]: { contextWindow: 65_536, price: { input: 1, output: 2 } } };

describe('oy doctor: model-facts', () => {
  it('shows the configured window and price, from the config file', () => {
    cases++;
    const { checks } = checkModel({ config: LOCAL, models: MODELS }, '/c.json', {});
    const facts = checks.find((check) => check.id === 'model-facts');
    expect(facts?.status).toBe('info');
    expect(facts?.detail).toMatch(/^context 65536 tokens, .*\$1\/\$2 per million tokens/);
    expect(facts?.detail).toContain('(from /c.json "models" over the built-in table)');
  });

  it('control: without the entry, the table default and no price', () => {
    cases++;
    const { checks } = checkModel({ config: LOCAL }, '/c.json', {});
    const facts = checks.find((check) => check.id === 'model-facts');
    expect(facts?.detail).toMatch(/^context 32768 tokens, .*no known price/);
    expect(facts?.detail).toContain('(from the built-in table)');
  });
});

describe('oy model: the default model', () => {
  const listing = (models?: typeof MODELS) =>
    buildModelListing({
      env: {},
      resolved: resolveModelId({ config: LOCAL, models }),
      resolveError: null,
      configFile: '/c.json',
      readCatalogue: () => ({ sdkVersion: '0', models: [], deprecated: {} }),
      listModels: async () => [],
    });

  it('lists its facts under it, marked as from the config', async () => {
    cases++;
    const text = renderModelListing(await listing(MODELS), createColors(false));
    expect(text).toMatch(
      /^default model: local-8080::house-model \(from \/c\.json\)\n {2}context 65536 tokens,.*\$1\/\$2.* \(config "models"\)$/m,
    );
  });

  it('control: the table facts without the mark', async () => {
    cases++;
    const result = await listing();
    expect(result.default?.factsFromConfig).toBe(false);
    expect(result.default?.facts.price).toBeUndefined();
    expect(renderModelListing(result, createColors(false))).not.toContain('config "models"');
  });
});
