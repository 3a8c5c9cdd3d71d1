import type { ModelRef } from '../types.js';
import { readAnthropicCatalogue } from './read-anthropic-catalogue.js';

/** The SDK's end-of-life date for a deprecated Anthropic model; null when not deprecated or the SDK cannot be read. */
export function findDeprecation(ref: ModelRef): string | null {
  if (ref.provider !== 'anthropic') return null;
  try {
    return readAnthropicCatalogue().deprecated[ref.model] ?? null;
  } catch {
    return null;
  }
}
