import type { ToolCall } from '../../providers/types.js';

/** The same call this many times in a row stops the loop (README.md "Agent mode"). */
export const REPEAT_STOP_COUNT = 5;
/** From this many in a row, the result the model reads carries a nudge. */
export const REPEAT_NUDGE_COUNT = 3;

export interface RepeatVerdict {
  /** How many times in a row this exact call has now been made. */
  count: number;
  shouldStop: boolean;
  nudge?: string;
}

/** Counts identical consecutive tool calls (same name, same arguments in canonical JSON). */
export class RepeatGuard {
  #lastKey: string | undefined;
  #count = 0;

  observe(call: ToolCall): RepeatVerdict {
    const key = `${call.name} ${canonicalJson(call.arguments)}`;
    this.#count = key === this.#lastKey ? this.#count + 1 : 1;
    this.#lastKey = key;
    const count = this.#count;
    if (count >= REPEAT_STOP_COUNT) return { count, shouldStop: true };
    if (count < REPEAT_NUDGE_COUNT) return { count, shouldStop: false };
    return {
      count,
      shouldStop: false,
      nudge:
        `You have made this exact ${call.name} call ${count} times in a row and got the same kind of ` +
        `result. Repeating it will not change the outcome: try something different, or stop and ` +
        `report where you stand. At ${REPEAT_STOP_COUNT} repeats the run is stopped.`,
    };
  }
}

/** JSON with object keys sorted at every depth, so `{a,b}` and `{b,a}` count as the same call. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([key, item]) => [key, sortKeys(item)]));
}
