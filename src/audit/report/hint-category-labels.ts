import { HINT_CATEGORIES } from '../hints/rule-categories.js';
import type { HintCategory } from '../types.js';

/** A human heading for each hint category, from the category's rule file. */
export const HINT_CATEGORY_LABELS = Object.fromEntries(
  Object.values(HINT_CATEGORIES).map((info) => [info.category, info.label]),
) as Readonly<Record<HintCategory, string>>;

/** The label of a hint category, or the category itself for one this build does not know. */
export function labelHintCategory(category: string): string {
  return Object.hasOwn(HINT_CATEGORY_LABELS, category)
    ? HINT_CATEGORY_LABELS[category as HintCategory]
    : category;
}
