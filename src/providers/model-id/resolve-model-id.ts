import { withConfiguredFacts, type ConfiguredModels } from '../model-facts/configured-models.js';
import type { ModelRef } from '../types.js';
import { parseModelId } from './parse-model-id.js';

/** Where the model id came from, for `oy model` and `oy doctor`. */
export type ModelIdSource = '--model' | 'OY_MODEL' | 'config';

export interface ModelIdCandidates {
  /** The `--model` flag. */
  flag?: string | undefined;
  /** The OY_MODEL variable. */
  env?: string | undefined;
  /** `model` in the user config file. */
  config?: string | undefined | null;
  /** `models` in the user config file: facts attached to the resolved ref. */
  models?: ConfiguredModels | undefined;
}

export interface ResolvedModelId {
  ref: ModelRef;
  source: ModelIdSource;
}

/** `--model` > OY_MODEL > config `model` (README.md "Models and providers"); null when none is set. An empty value counts as unset. */
export function resolveModelId(candidates: ModelIdCandidates): ResolvedModelId | null {
  const ordered: Array<[ModelIdSource, string | undefined | null]> = [
    ['--model', candidates.flag],
    ['OY_MODEL', candidates.env],
    ['config', candidates.config],
  ];
  for (const [source, value] of ordered) {
    if (value !== undefined && value !== null && value.trim() !== '') {
      return { ref: withConfiguredFacts(parseModelId(value), candidates.models), source };
    }
  }
  return null;
}
