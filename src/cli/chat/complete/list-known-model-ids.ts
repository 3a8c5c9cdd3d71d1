import { readAnthropicCatalogue } from '../../../providers/catalogue/read-anthropic-catalogue.js';
import { invokableBedrockIds } from '../../../providers/model-facts/model-facts-for.js';
import { parseModelId } from '../../../providers/model-id/parse-model-id.js';
import { listPricedModelIds } from '../../../providers/pricing/list-priced-model-ids.js';

/**
 * The model ids oy knows without asking a network (what `oy model` lists from the catalogue): the
 * installed Anthropic SDK's ids, the price table's OpenAI and Bedrock ids (a profile-only Bedrock
 * model by its inference-profile ids), and the config's own `models` keys, each once, sorted.
 */
export function listKnownModelIds(configured: readonly string[]): string[] {
  let anthropic: string[] = [];
  try {
    anthropic = readAnthropicCatalogue().models.map((model) => `anthropic::${model}`);
  } catch {
    // An SDK whose files moved lists none; the other ids still complete.
  }
  const priced = [...listPricedModelIds('openai'), ...listPricedModelIds('bedrock')].flatMap(
    (id) => {
      const ref = parseModelId(id);
      return ref.provider === 'bedrock' ? invokableBedrockIds(ref) : [id];
    },
  );
  return [...new Set([...anthropic, ...priced, ...configured])].sort();
}
