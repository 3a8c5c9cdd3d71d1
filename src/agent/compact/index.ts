export {
  COMPACT_AT_FRACTION,
  compactIfNeeded,
  type CompactionInput,
  type CompactionResult,
} from './compact-if-needed.js';
export { contextWindowFor } from './context-window.js';
export { estimateRequestTokens } from './estimate-tokens.js';
