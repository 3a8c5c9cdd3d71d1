import type { CallOptions, ModelRef, ModelRequest, ModelResult } from '../types.js';

/** One request of a batch: the id its result comes back under, and the same request an online call would send. */
export interface BatchRequest {
  customId: string;
  request: ModelRequest;
}

/** A batch as the provider last reported it. */
export interface BatchStatus {
  id: string;
  /** Every request has a result (or none will come: the batch expired or was canceled). */
  isEnded: boolean;
  /** The provider's own word: `in_progress`, `canceling`, `ended`. */
  processingStatus: string;
  counts: BatchRequestCounts;
  /** When the provider gives up on the batch (RFC 3339). */
  expiresAt: string;
}

export interface BatchRequestCounts {
  processing: number;
  succeeded: number;
  errored: number;
  canceled: number;
  expired: number;
}

/** How one request of a batch ended: an answer, exactly as an online call gives it, or why there is none. */
export type BatchOutcome =
  | { type: 'succeeded'; result: ModelResult }
  /** The provider's error type (`invalid_request_error`, `api_error`…) and its words, quoted safely. */
  | { type: 'errored'; errorType: string; message: string }
  | { type: 'canceled' }
  | { type: 'expired' };

export interface BatchResult {
  customId: string;
  outcome: BatchOutcome;
}

/** A provider's batch API (Anthropic's Message Batches): submit, look in on, read back, cancel. */
export interface BatchClient {
  readonly ref: ModelRef;
  create(requests: readonly BatchRequest[], options?: CallOptions): Promise<BatchStatus>;
  retrieve(batchId: string, options?: CallOptions): Promise<BatchStatus>;
  /** The results of an ended batch, in whatever order the provider sends them. */
  results(batchId: string, options?: CallOptions): AsyncIterable<BatchResult>;
  cancel(batchId: string, options?: CallOptions): Promise<BatchStatus>;
}
