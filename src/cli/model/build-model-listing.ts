import {
  readAnthropicCatalogue,
  type AnthropicCatalogue,
} from '../../providers/catalogue/read-anthropic-catalogue.js';
import {
  discoverModels,
  listDiscoveryTargets,
  type DiscoveredModels,
  type ListModels,
} from '../../providers/catalogue/discover-models.js';
import { listCredentialPresence } from '../../providers/list-credential-presence.js';
import type { ResolvedModelId } from '../../providers/model-id/resolve-model-id.js';
import type { ModelFacts } from '../../providers/model-facts/model-facts.js';
import { invokableBedrockIds, modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import { parseModelId } from '../../providers/model-id/parse-model-id.js';
import { listPricedModelIds } from '../../providers/pricing/list-priced-model-ids.js';
import type { ProviderEnvironment } from '../../providers/provider-environment.js';
import type { ProviderName } from '../../providers/types.js';

/** What `oy model` shows, and prints as JSON with `--json`. */
export interface ModelListing {
  default: {
    id: string;
    provider: ProviderName;
    source: string;
    /** End-of-life date when the SDK lists the model as deprecated. */
    deprecatedUntil: string | null;
    /** What requests are built from: the built-in table, with the config's `models` entry over it. */
    facts: ModelFacts;
    factsFromConfig: boolean;
  } | null;
  /** Why the configured default could not be read, if it could not. */
  defaultError: string | null;
  credentials: Array<{ provider: ProviderName; found: string[] }>;
  catalogue: CatalogueSection[];
  discovered: DiscoveredModels[];
}

export interface CatalogueSection {
  provider: ProviderName;
  /** Where the ids come from: the SDK and its version, or the price table. */
  source: string;
  models: Array<{ id: string; deprecatedUntil: string | null }>;
  /** Set when the source could not be read; `models` is then empty. */
  error: string | null;
}

export interface ModelListingInput {
  env: ProviderEnvironment;
  /** The resolved default, or an error from resolving it. */
  resolved: ResolvedModelId | null;
  resolveError: string | null;
  /** Shown as where a config default came from. */
  configFile: string;
  readCatalogue?: () => AnthropicCatalogue;
  listModels?: ListModels;
}

/** Gathers the listing: the default, credentials by name, the catalogue, and models from configured endpoints. */
export async function buildModelListing(input: ModelListingInput): Promise<ModelListing> {
  const anthropic = anthropicSection(input.readCatalogue ?? readAnthropicCatalogue);
  const deprecated = new Map(anthropic.models.map((model) => [model.id, model.deprecatedUntil]));
  const ref = input.resolved?.ref ?? null;
  const discovered = await discoverModels(
    listDiscoveryTargets(input.env, ref),
    input.listModels ? { listModels: input.listModels } : {},
  );
  return {
    default:
      input.resolved && ref
        ? {
            id: ref.id,
            provider: ref.provider,
            source: input.resolved.source === 'config' ? input.configFile : input.resolved.source,
            deprecatedUntil: deprecated.get(ref.id) ?? null,
            facts: modelFactsFor(ref),
            factsFromConfig: ref.facts !== undefined,
          }
        : null,
    defaultError: input.resolveError,
    credentials: listCredentialPresence(input.env)
      .filter((entry) => entry.found.length > 0)
      .map(({ provider, found }) => ({ provider, found })),
    catalogue: [anthropic, pricedSection('openai'), pricedSection('bedrock')],
    discovered,
  };
}

function anthropicSection(readCatalogue: () => AnthropicCatalogue): CatalogueSection {
  try {
    const catalogue = readCatalogue();
    return {
      provider: 'anthropic',
      source: `@anthropic-ai/sdk ${catalogue.sdkVersion}`,
      models: catalogue.models.map((model) => ({
        id: `anthropic::${model}`,
        deprecatedUntil: catalogue.deprecated[model] ?? null,
      })),
      error: null,
    };
  } catch (error) {
    return {
      provider: 'anthropic',
      source: '@anthropic-ai/sdk',
      models: [],
      error: `could not read the model list from the installed SDK: ${(error as Error).message}`,
    };
  }
}

function invokableIds(id: string): string[] {
  const ref = parseModelId(id);
  return ref.provider === 'bedrock' ? invokableBedrockIds(ref) : [id];
}

function pricedSection(provider: ProviderName): CatalogueSection {
  return {
    provider,
    source: 'oy price table',
    // A bare Bedrock id of a profile-only model fails on demand: list its inference-profile ids instead.
    models: [...new Set(listPricedModelIds(provider).flatMap(invokableIds))].map((id) => ({
      id,
      deprecatedUntil: null,
    })),
    error: null,
  };
}
