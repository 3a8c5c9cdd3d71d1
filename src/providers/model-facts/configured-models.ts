import { parseModelId } from '../model-id/parse-model-id.js';
import type { ModelRef } from '../types.js';
import type { ModelFactsOverride, ThinkingKind } from './model-facts.js';

/** One `models` entry of the user config file, in the words a person writes (`local`, a price without cache rates). */
export interface ConfiguredModel {
  contextWindow?: number | undefined;
  maxOutputTokens?: number | undefined;
  /** USD per million tokens; cache rates default to the dearer side so a cost limit is never optimistic. */
  price?:
    | {
        input: number;
        output: number;
        cacheWrite?: number | undefined;
        cacheRead?: number | undefined;
      }
    | undefined;
  promptCache?: boolean | undefined;
  minCacheableTokens?: number | undefined;
  thinking?: ThinkingKind | undefined;
  streamingToolUse?: boolean | undefined;
  toolResultStatus?: boolean | undefined;
  inferenceProfileRequired?: boolean | undefined;
  local?: boolean | undefined;
}

/** The config's `models`: keyed by model id as `oy` takes it (`local-8080::qwen3`, `claude-x`). */
export type ConfiguredModels = Readonly<Record<string, ConfiguredModel>>;

/** Anthropic's cache-write premium; a configured price without one is assumed to pay it. */
const CACHE_WRITE_FACTOR = 1.25;

/**
 * The ref with what the config says about its model attached (`ref.facts`), so every reader of
 * `modelFactsFor(ref)` and `priceFor(ref)` sees it. Keys are compared as canonical ids, so `claude-x`
 * and `anthropic::claude-x` name the same model.
 */
export function withConfiguredFacts(ref: ModelRef, models: ConfiguredModels | undefined): ModelRef {
  const entry = Object.entries(models ?? {}).find(([key]) => canonicalId(key) === ref.id)?.[1];
  if (entry === undefined) return ref;
  return { ...ref, facts: { ...ref.facts, ...toFactsOverride(entry) } };
}

/** Whether the config describes this model (for `oy model` and `oy doctor` to say where facts come from). */
export function isConfiguredModel(ref: ModelRef, models: ConfiguredModels | undefined): boolean {
  return Object.keys(models ?? {}).some((key) => canonicalId(key) === ref.id);
}

function canonicalId(key: string): string | undefined {
  try {
    return parseModelId(key).id;
  } catch {
    return undefined;
  }
}

function toFactsOverride(entry: ConfiguredModel): ModelFactsOverride {
  const { price, local, ...facts } = entry;
  const override: ModelFactsOverride = {};
  for (const [key, value] of Object.entries(facts))
    if (value !== undefined) Object.assign(override, { [key]: value });
  if (local !== undefined) override.isLocal = local;
  if (price !== undefined) {
    override.price = {
      input: price.input,
      output: price.output,
      cacheWrite: price.cacheWrite ?? price.input * CACHE_WRITE_FACTOR,
      cacheRead: price.cacheRead ?? price.input,
    };
  }
  return override;
}
