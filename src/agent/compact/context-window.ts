import { modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import type { ModelRef } from '../../providers/types.js';

export {
  DEFAULT_HOSTED_CONTEXT_TOKENS,
  DEFAULT_LOCAL_CONTEXT_TOKENS,
} from '../../providers/model-facts/model-facts-for.js';

/** The context window in tokens: the config's `agent.contextWindow` when set, else the model facts table. */
export function contextWindowFor(ref: ModelRef, override: number | null): number {
  if (override !== null && Number.isFinite(override) && override > 0) return Math.floor(override);
  return modelFactsFor(ref).contextWindow;
}
