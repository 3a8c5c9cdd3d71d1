import type { HintCategory } from '../../types.js';
import { RULE_CATEGORIES } from '../rule-categories.js';
import type { SinkKind } from './flow-value.js';

/** The sink kind a hint category's sinks have (which sanitisers make a value safe for them), from the rule files. */
export const CATEGORY_SINK_KINDS: Partial<Record<HintCategory, SinkKind>> = Object.fromEntries(
  RULE_CATEGORIES.flatMap((c) => (c.sinkKind === undefined ? [] : [[c.category, c.sinkKind]])),
);
