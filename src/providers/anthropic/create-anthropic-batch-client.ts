import type * as AnthropicSdk from '@anthropic-ai/sdk';
import type { BatchClient, BatchResult, BatchStatus } from '../batch/batch-client.js';
import type { AnthropicSettings } from '../provider-settings.js';
import { ProviderError } from '../provider-error.js';
import { quoteProviderMessage } from '../quote-provider-message.js';
import type { CallOptions, ModelRef } from '../types.js';
import { classifyAnthropicError, type AnthropicErrorContext } from './classify-anthropic-error.js';
import { hostOf, loadSdk, type LoadedSdk } from './create-anthropic-client.js';
import { readAnthropicMessage } from './read-anthropic-message.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

/** The SDK's message batch object, as `retrieve` gives it. */
type MessageBatch = Awaited<ReturnType<AnthropicSdk.Anthropic['messages']['batches']['retrieve']>>;

/**
 * A BatchClient over Anthropic's Message Batches API, through the SDK's `messages.batches` at the same
 * base URL as online calls. Each request's params are exactly what an online call sends, less `stream`
 * (the API refuses it in a batch). Results are read as online answers are (readAnthropicMessage).
 */
export function createAnthropicBatchClient(
  ref: ModelRef,
  settings: AnthropicSettings,
): BatchClient {
  let loading: Promise<LoadedSdk> | undefined;
  const load = () => (loading ??= loadSdk(settings));
  const context = (sdk: typeof AnthropicSdk): AnthropicErrorContext => ({
    ref,
    sdk,
    apiKey: settings.apiKey,
    host: hostOf(settings.baseURL),
  });
  const call = async <T>(run: (client: AnthropicSdk.Anthropic) => Promise<T>): Promise<T> => {
    const { sdk, client } = await load();
    try {
      return await run(client);
    } catch (error) {
      throw classifyAnthropicError(error, context(sdk));
    }
  };
  const status = (batch: MessageBatch): BatchStatus => readStatus(batch, ref);
  return {
    ref,
    create: (requests, options = {}) =>
      call(async (client) =>
        status(
          await client.messages.batches.create(
            {
              requests: requests.map(({ customId, request }) => {
                const { stream: _stream, ...params } = toAnthropicRequest(ref, request);
                return { custom_id: customId, params };
              }),
            },
            signalOf(options),
          ),
        ),
      ),
    retrieve: (batchId, options = {}) =>
      call(async (client) =>
        status(await client.messages.batches.retrieve(batchId, {}, signalOf(options))),
      ),
    cancel: (batchId, options = {}) =>
      call(async (client) =>
        status(await client.messages.batches.cancel(batchId, {}, signalOf(options))),
      ),
    results: (batchId, options = {}) => readResults(load, context, ref, settings, batchId, options),
  };
}

async function* readResults(
  load: () => Promise<LoadedSdk>,
  context: (sdk: typeof AnthropicSdk) => AnthropicErrorContext,
  ref: ModelRef,
  settings: AnthropicSettings,
  batchId: string,
  options: CallOptions,
): AsyncGenerator<BatchResult> {
  const { sdk, client } = await load();
  let lines: AsyncIterable<unknown>;
  try {
    lines = await client.messages.batches.results(batchId, {}, signalOf(options));
  } catch (error) {
    throw classifyAnthropicError(error, context(sdk));
  }
  const iterator = lines[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<unknown>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw classifyAnthropicError(error, context(sdk));
    }
    if (next.done) return;
    yield readResultLine(next.value, ref, settings.apiKey);
  }
}

/** One line of the results JSONL, checked at the edge: an unknown result type is a `server` error. */
function readResultLine(line: unknown, ref: ModelRef, apiKey: string): BatchResult {
  const malformed = (why: string) =>
    new ProviderError('server', ref, `Anthropic sent a malformed batch result line: ${why}`, {
      hint: 'retry; if it keeps happening, check ANTHROPIC_BASE_URL points at the Anthropic API',
    });
  if (!isRecord(line) || typeof line.custom_id !== 'string') throw malformed('no custom_id');
  const result = line.result;
  if (!isRecord(result)) throw malformed('no result');
  const customId = line.custom_id;
  switch (result.type) {
    case 'succeeded':
      return {
        customId,
        outcome: { type: 'succeeded', result: readAnthropicMessage(result.message, ref) },
      };
    case 'errored': {
      const body = isRecord(result.error) ? result.error : {};
      const inner = isRecord(body.error) ? body.error : body;
      const errorType = typeof inner.type === 'string' ? inner.type : 'error';
      const message = quoteProviderMessage(inner.message, [apiKey]);
      return { customId, outcome: { type: 'errored', errorType, message } };
    }
    case 'canceled':
    case 'expired':
      return { customId, outcome: { type: result.type } };
    default:
      throw malformed(`an unknown result type ${JSON.stringify(String(result.type)).slice(0, 40)}`);
  }
}

function readStatus(batch: MessageBatch, ref: ModelRef): BatchStatus {
  const counts = batch.request_counts;
  if (typeof batch.id !== 'string' || !isRecord(counts))
    throw new ProviderError('server', ref, 'Anthropic sent a malformed message batch', {
      hint: 'check ANTHROPIC_BASE_URL points at the Anthropic API',
    });
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
  return {
    id: batch.id,
    isEnded: batch.processing_status === 'ended',
    processingStatus: String(batch.processing_status),
    counts: {
      processing: count(counts.processing),
      succeeded: count(counts.succeeded),
      errored: count(counts.errored),
      canceled: count(counts.canceled),
      expired: count(counts.expired),
    },
    expiresAt: String(batch.expires_at),
  };
}

function signalOf(options: CallOptions): { signal?: AbortSignal } {
  return options.signal ? { signal: options.signal } : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
