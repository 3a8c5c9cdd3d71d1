import { ProviderError } from '../../providers/provider-error.js';
import { OyError } from '../../shared/errors.js';
import { ReplayDiverged } from '../replay/replay-model-client.js';
import { ReplayedFailure } from '../replay/replayed-failure.js';

/** A failed model call as the loop reports it (its `error` event) and a session records it. */
export interface LoopError {
  /** A ProviderError's kind, `replay`, or `internal` for anything else. */
  kind: string;
  /** The message, with the hint when there is one (not yet redacted). */
  message: string;
}

/** One description, so a replayed failure reads exactly as the recorded one did. */
export function describeLoopError(error: unknown): LoopError {
  return { kind: kindOf(error), message: messageOf(error) };
}

function kindOf(error: unknown): string {
  if (error instanceof ReplayDiverged) return 'replay';
  if (error instanceof ReplayedFailure) return error.kind;
  return error instanceof ProviderError ? error.kind : 'internal';
}

function messageOf(error: unknown): string {
  if (error instanceof OyError)
    return error.hint ? `${error.message} (${error.hint})` : error.message;
  return error instanceof Error ? error.message : String(error);
}
