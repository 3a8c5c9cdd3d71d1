import type { AgentEvent } from '../events.js';

/**
 * Runs `work` and yields the events it emits while it runs, as they come (an approval appears
 * before the command it allowed finishes), then returns its result or rethrows its error.
 */
export async function* forwardEvents<T>(
  work: (emit: (event: AgentEvent) => void) => Promise<T>,
): AsyncGenerator<AgentEvent, T> {
  const pending: AgentEvent[] = [];
  let wake: (() => void) | undefined;
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  const emit = (event: AgentEvent) => {
    pending.push(event);
    wake?.();
  };
  void work(emit).then(
    (value) => {
      outcome = { ok: true, value };
      wake?.();
    },
    (error: unknown) => {
      outcome = { ok: false, error };
      wake?.();
    },
  );
  for (;;) {
    while (pending.length > 0) yield pending.shift()!;
    if (outcome !== undefined) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (pending.length > 0 || outcome !== undefined) resolve();
    });
    wake = undefined;
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
