import { EXIT, OyError, type OyErrorOptions } from '../shared/errors.js';
import type { ModelRef } from './types.js';

/** Every provider failure becomes one of these, decided by status code and error type, never by message text. */
export type ProviderErrorKind =
  | 'auth'
  | 'permission'
  | 'model_not_found'
  | 'rate_limited'
  | 'overloaded'
  | 'server'
  | 'bad_request'
  | 'context_too_long'
  | 'connection'
  | 'timeout'
  | 'aborted';

/** Kinds worth another attempt; the others fail at once. */
export const RETRYABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  'rate_limited',
  'overloaded',
  'server',
  'connection',
  'timeout',
]);

export interface ProviderErrorOptions extends OyErrorOptions {
  status?: number;
  /** Milliseconds the provider asked us to wait (Retry-After), as asked; the retry wrapper caps its waits. */
  retryAfterMs?: number;
  /** The server said whether to retry (`x-should-retry`); over the kind's default when set. */
  shouldRetry?: boolean;
}

/** A classified provider failure. Its message names the provider, the model and what to do; never a secret. */
export class ProviderError extends OyError {
  readonly kind: ProviderErrorKind;
  readonly ref: ModelRef;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly shouldRetry: boolean | undefined;

  constructor(
    kind: ProviderErrorKind,
    ref: ModelRef,
    message: string,
    options: ProviderErrorOptions = {},
  ) {
    super(`${ref.id}: ${message}`, kind === 'aborted' ? EXIT.interrupted : EXIT.runtime, options);
    this.kind = kind;
    this.ref = ref;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.shouldRetry = options.shouldRetry;
  }

  /** The kind decides, unless the server said otherwise; a cancelled call is never tried again. */
  get isRetryable(): boolean {
    if (this.kind === 'aborted') return false;
    return this.shouldRetry ?? RETRYABLE_KINDS.has(this.kind);
  }
}
