import { createModelClient } from '../../providers/create-model-client.js';
import type { ModelRef, ModelRequest } from '../../providers/types.js';
import type { DoctorCheck } from './doctor-check.js';

/** Enough for a cold model to answer one token, short enough that a hung endpoint does not stall doctor. */
const ONLINE_TIMEOUT_MS = 30_000;

/** The smallest request that proves the key, endpoint and model id all work. */
const PROBE_REQUEST: ModelRequest = {
  system: 'This is a connectivity check.',
  messages: [{ role: 'user', text: 'Reply with OK.' }],
  maxTokens: 1,
};

/** `oy doctor --online`: one request, no retries, to the resolved model (required when asked for). */
export async function checkOnline(
  ref: ModelRef | null,
  env: NodeJS.ProcessEnv,
): Promise<DoctorCheck> {
  if (ref === null) {
    return {
      id: 'online',
      status: 'fail',
      detail: 'no model to contact: none is configured, or it is invalid',
      hint: 'set one with oy model <id> or --model',
    };
  }
  const started = performance.now();
  try {
    const client = await createModelClient(ref, env, {
      timeoutMs: ONLINE_TIMEOUT_MS,
      retry: { maxAttempts: 1 },
    });
    const result = await client.complete(PROBE_REQUEST);
    const elapsedMs = Math.round(performance.now() - started);
    const { inputTokens, outputTokens } = result.usage;
    return {
      id: 'online',
      status: 'ok',
      detail: `${ref.id} answered in ${elapsedMs} ms (${inputTokens} input, ${outputTokens} output tokens)`,
      data: { elapsedMs, usage: result.usage },
    };
  } catch (error) {
    const hint = (error as { hint?: string }).hint;
    const kind = (error as { kind?: string }).kind;
    return {
      id: 'online',
      status: 'fail',
      detail: error instanceof Error ? error.message : String(error),
      ...(hint ? { hint } : {}),
      data: { errorKind: kind ?? null },
    };
  }
}
