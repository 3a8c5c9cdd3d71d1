import type {
  BatchClient,
  BatchOutcome,
  BatchStatus,
} from '../../../providers/batch/batch-client.js';
import { ProviderError } from '../../../providers/provider-error.js';
import { abortableSleep } from '../../../providers/retry/abortable-sleep.js';
import { mapRequest } from '../review-chunk.js';
import { assignCustomIds } from './assign-custom-ids.js';
import {
  readBatchRecord,
  removeBatchRecord,
  writeBatchRecord,
  type BatchRunIdentity,
} from './batch-record.js';

/** One map call the cache could not answer: its cache key, its chunk id and its prompt. */
export interface PlannedMapCall {
  key: string;
  chunkId: string;
  prompt: { system: string; user: string };
}

/** What the batch gave for one map call: the provider's outcome, or why there is none. */
export type BatchAnswer = BatchOutcome | { type: 'failed'; reason: string; detail: string };

/** What `--batch` says on stderr as it goes. */
export type BatchEvent =
  | { kind: 'submitted' | 'resumed'; batchId: string; requests: number }
  | { kind: 'polled'; status: BatchStatus; elapsedMs: number }
  | { kind: 'ended'; status: BatchStatus };

export interface MapBatchOptions {
  client: BatchClient;
  /** Where the record of a batch still out is kept; null: nowhere, so an interrupted batch is not picked up. */
  stateDir: string | null;
  /** The workspace's real path: part of what identifies the run. */
  workspace: string;
  /** `--batch-timeout`: how long this run waits for the batch to end. */
  timeoutMs: number;
  /** Wait between polls; null for the default schedule (POLL_SCHEDULE_MS). */
  pollIntervalMs: number | null;
  signal?: AbortSignal;
  onEvent?: (event: BatchEvent) => void;
  /** Said with `--verbose`: a result for a request this run did not make. */
  onNotice?: (text: string) => void;
  /** Injected by tests; the real clock and an abortable timer otherwise. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Polls start quick (most small batches end in minutes) and settle at a minute, as Anthropic's examples poll. */
const POLL_SCHEDULE_MS = [5_000, 10_000, 20_000, 30_000, 60_000];
/** Failed polls in a row (rate limits, a dropped connection) tolerated before the run gives up waiting. */
const MAX_POLL_FAILURES = 5;

/** A batch this run submitted or picked up: its answers, and what to do once they are safely stored. */
export interface MapBatch {
  answers: Map<string, BatchAnswer>;
  /** Removes the batch's record once its results are in the map cache; keeps it when the batch is still out. */
  settle(): Promise<void>;
}

/**
 * The map calls as one Message Batch: one request per distinct cache key, its `custom_id` from the chunk
 * id. A record in the state folder names the batch as soon as it exists, so a run killed while it waits
 * is picked up by the next run with the same chunks instead of paying twice. Polls until the batch ends
 * or `--batch-timeout` passes (then every answer is `failed(batch-timeout)` and the record stays).
 */
export async function runMapBatch(
  calls: readonly PlannedMapCall[],
  options: MapBatchOptions,
): Promise<MapBatch> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const signalOption = options.signal ? { signal: options.signal } : {};
  const distinct = [...new Map(calls.map((call) => [call.key, call])).values()];
  const customIds = assignCustomIds(distinct.map((call) => call.chunkId));
  const identity: BatchRunIdentity = {
    workspace: options.workspace,
    model: options.client.ref.id,
    requests: distinct.map((call, index) => ({ customId: customIds[index]!, key: call.key })),
  };
  const keyById = new Map(identity.requests.map(({ customId, key }) => [customId, key]));
  const { stateDir } = options;

  let status = await resume(options, identity);
  if (status === undefined) {
    status = await options.client.create(
      distinct.map((call, index) => ({
        customId: customIds[index]!,
        request: mapRequest(call.prompt.system, [{ role: 'user', text: call.prompt.user }]),
      })),
      signalOption,
    );
    if (stateDir !== null) {
      await writeBatchRecord(stateDir, {
        ...identity,
        batchId: status.id,
        createdAt: new Date(now()).toISOString(),
        expiresAt: status.expiresAt,
      }).catch(() =>
        options.onNotice?.(
          `the record of batch ${status!.id} could not be written to ${stateDir}: an interrupted run cannot pick it up`,
        ),
      );
    }
    options.onEvent?.({ kind: 'submitted', batchId: status.id, requests: distinct.length });
  } else {
    options.onEvent?.({ kind: 'resumed', batchId: status.id, requests: distinct.length });
  }

  const startedAt = now();
  const deadline = startedAt + options.timeoutMs;
  let failures = 0;
  for (let poll = 0; !status.isEnded; poll++) {
    const left = deadline - now();
    if (left <= 0) return timedOut(status, identity);
    const wait =
      options.pollIntervalMs ?? POLL_SCHEDULE_MS[Math.min(poll, POLL_SCHEDULE_MS.length - 1)]!;
    await sleep(Math.min(wait, left), options.signal);
    try {
      status = await options.client.retrieve(status.id, signalOption);
      failures = 0;
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.isRetryable || ++failures > MAX_POLL_FAILURES)
        throw error;
      continue;
    }
    options.onEvent?.({ kind: 'polled', status, elapsedMs: now() - startedAt });
  }
  options.onEvent?.({ kind: 'ended', status });

  const answers = new Map<string, BatchAnswer>();
  for await (const { customId, outcome } of options.client.results(status.id, signalOption)) {
    const key = keyById.get(customId);
    if (key === undefined) {
      options.onNotice?.(
        `batch ${status.id} sent a result for a request this run did not make: ignored`,
      );
      continue;
    }
    // The first result for an id stands; a repeat cannot replace it.
    if (!answers.has(key)) answers.set(key, outcome);
  }
  for (const { key } of identity.requests) {
    if (!answers.has(key))
      answers.set(key, {
        type: 'failed',
        reason: 'missing',
        detail: `batch ${status.id} ended without a result for this chunk`,
      });
  }
  const batchId = status.id;
  return {
    answers,
    settle: async () => {
      if (stateDir !== null) await removeBatchRecord(stateDir, identity).catch(() => undefined);
      options.onNotice?.(`batch ${batchId} read back; its record is removed`);
    },
  };
}

/** The batch of an earlier run with the same chunks, still known to the provider, or undefined. */
async function resume(
  options: MapBatchOptions,
  identity: BatchRunIdentity,
): Promise<BatchStatus | undefined> {
  if (options.stateDir === null) return undefined;
  const record = await readBatchRecord(options.stateDir, identity);
  if (record === undefined) return undefined;
  try {
    return await options.client.retrieve(
      record.batchId,
      options.signal ? { signal: options.signal } : {},
    );
  } catch (error) {
    // Gone (deleted, or another account's): forget it and submit again; any other failure is the run's.
    if (error instanceof ProviderError && error.kind === 'model_not_found') {
      options.onNotice?.(
        `batch ${record.batchId} is no longer known to the provider: submitting again`,
      );
      await removeBatchRecord(options.stateDir, identity);
      return undefined;
    }
    throw error;
  }
}

function timedOut(status: BatchStatus, identity: BatchRunIdentity): MapBatch {
  const detail = `batch ${status.id} did not end within --batch-timeout; it goes on at the provider until ${status.expiresAt}, and running the same command again picks up its results`;
  return {
    answers: new Map(
      identity.requests.map(({ key }) => [
        key,
        { type: 'failed', reason: 'batch-timeout', detail },
      ]),
    ),
    // The batch is still out: its record stays for the next run.
    settle: () => Promise.resolve(),
  };
}
