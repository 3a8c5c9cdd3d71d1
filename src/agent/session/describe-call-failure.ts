import { ProviderError } from '../../providers/provider-error.js';
import { OyError, type OyErrorOptions } from '../../shared/errors.js';

/**
 * A model call's failure that names its own kind (a replay's divergence, a recorded failure raised
 * again), so the loop and the session can describe it without knowing where it came from.
 */
export class KindedCallFailure extends OyError {
  readonly kind: string;

  constructor(message: string, kind: string, exitCode: number, options: OyErrorOptions = {}) {
    super(message, exitCode, options);
    this.kind = kind;
  }
}

/** A failed model call as the loop reports it (its `error` event) and a session records it. */
export interface CallFailure {
  /** A ProviderError's or KindedCallFailure's kind (`replay`: the replay diverged), or `internal`. */
  kind: string;
  /** The message, with the hint when there is one (not yet redacted). */
  message: string;
}

/** One description, so a replayed failure reads exactly as the recorded one did. */
export function describeCallFailure(error: unknown): CallFailure {
  return { kind: kindOf(error), message: messageOf(error) };
}

function kindOf(error: unknown): string {
  if (error instanceof KindedCallFailure || error instanceof ProviderError) return error.kind;
  return 'internal';
}

function messageOf(error: unknown): string {
  if (error instanceof OyError)
    return error.hint ? `${error.message} (${error.hint})` : error.message;
  return error instanceof Error ? error.message : String(error);
}
