import type { ServerResponse } from 'node:http';
import { renderMessage } from './anthropic-answer.js';
import { DEFAULT_ERROR_TYPES } from './anthropic-protocol.js';
import type { FakeRoute, FakeRouteContext, RecordedRequest } from './fake-provider-server.js';
import type { ScriptedReply } from './script.js';
import type { Violation } from './thinking-ledger.js';
import { checkAnthropicRequest } from './validate/anthropic-rules.js';

/** `custom_id`, as the API reference states it. */
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
/** The API's limit on requests per batch. */
const MAX_BATCH_REQUESTS = 100_000;
/** A batch expires 24 hours after it was made. */
const BATCH_LIFETIME_MS = 24 * 3_600_000;
/** Fixed creation time, so batch objects are stable. */
const CREATED_AT = Date.parse('2026-01-01T00:00:00Z');
const BATCH_PATH = /^\/v1\/messages\/batches\/([^/]+)(\/results|\/cancel)?$/;

/** How the fake's batches behave; a test may change it between runs (it is read at every request). */
export interface FakeBatchBehaviour {
  /** Polls (`GET /v1/messages/batches/{id}`) answered `in_progress` before the batch ends; Infinity holds it. */
  inProgressPolls: number;
}

interface FakeBatch {
  id: string;
  requests: { customId: string; model: string; reply: ScriptedReply; callNumber: number }[];
  polls: number;
  isCanceled: boolean;
  isEnded: boolean;
  endedAt: string | null;
  cancelInitiatedAt: string | null;
}

/**
 * Anthropic's Message Batches (`POST /v1/messages/batches`, `GET …/{id}`, `GET …/{id}/results`,
 * `POST …/{id}/cancel`) as the API reference describes them. Each request's `params` go through the same
 * validator as `POST /v1/messages`, and `stream` is refused. Each request takes the next scripted reply:
 * an answer succeeds (or ends `expired`/`canceled` when its `batchResult` says so), an error is `errored`.
 */
export function createAnthropicBatchRoute(behaviour: FakeBatchBehaviour): FakeRoute & {
  batches: Map<string, FakeBatch>;
} {
  const batches = new Map<string, FakeBatch>();
  let callNumber = 0;
  return {
    protocol: 'anthropic',
    batches,
    matches: (method, path, headers) =>
      headers['anthropic-version'] !== undefined &&
      ((method === 'POST' && path === '/v1/messages/batches') || BATCH_PATH.test(path)),
    respond(request, res, context) {
      if (request.method === 'POST' && request.path === '/v1/messages/batches') {
        const made = createBatch(request, context, batches.size + 1, () => ++callNumber);
        if ('status' in made) {
          context.recordViolation(made);
          return writeError(res, made.status, made.type, made.message);
        }
        batches.set(made.id, made);
        return writeJson(res, 200, renderBatch(made, context.url));
      }
      const [, id = '', action] = BATCH_PATH.exec(request.path) ?? [];
      const batch = batches.get(id);
      if (!batch) return writeError(res, 404, 'not_found_error', `No batch found with id ${id}`);
      if (request.method === 'GET' && action === undefined) {
        batch.polls++;
        if (!batch.isEnded && (batch.isCanceled || batch.polls > behaviour.inProgressPolls)) {
          batch.isEnded = true;
          batch.endedAt = new Date(CREATED_AT + batch.polls * 1000).toISOString();
        }
        return writeJson(res, 200, renderBatch(batch, context.url));
      }
      if (request.method === 'GET' && action === '/results') {
        if (!batch.isEnded)
          return writeError(res, 400, 'invalid_request_error', 'Batch results are not ready');
        // Not in request order, as the API warns: a client must match results by custom_id.
        const lines = [...batch.requests]
          .reverse()
          .map((item) => renderResult(item, batch, context));
        res.writeHead(200, {
          'content-type': 'application/binary',
          'request-id': 'req_fake_batch',
        });
        res.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
        return;
      }
      if (request.method === 'POST' && action === '/cancel') {
        if (!batch.isEnded) {
          batch.isCanceled = true;
          batch.cancelInitiatedAt = new Date(CREATED_AT).toISOString();
        }
        return writeJson(res, 200, renderBatch(batch, context.url));
      }
      context.recordUnexpected(`no batch route for ${request.method} ${request.path}`);
      return writeError(res, 404, 'not_found_error', 'Not found');
    },
  };
}

function createBatch(
  request: RecordedRequest,
  context: FakeRouteContext,
  index: number,
  nextCall: () => number,
): FakeBatch | Violation {
  const invalid = (message: string): Violation => ({
    status: 400,
    type: 'invalid_request_error',
    message,
  });
  const body = request.body;
  if (!isRecord(body)) return invalid('The request body is not valid JSON.');
  for (const key of Object.keys(body))
    if (key !== 'requests') return invalid(`${key}: Extra inputs are not permitted`);
  const requests = body.requests;
  if (!Array.isArray(requests) || requests.length < 1 || requests.length > MAX_BATCH_REQUESTS)
    return invalid(`requests: must be a list of 1 to ${MAX_BATCH_REQUESTS} requests`);
  const seen = new Set<string>();
  for (const [at, item] of requests.entries()) {
    if (!isRecord(item)) return invalid(`requests.${at}: Input should be an object`);
    for (const key of Object.keys(item))
      if (key !== 'custom_id' && key !== 'params')
        return invalid(`requests.${at}.${key}: Extra inputs are not permitted`);
    const customId = item.custom_id;
    if (typeof customId !== 'string' || !CUSTOM_ID.test(customId))
      return invalid(
        `requests.${at}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`,
      );
    if (seen.has(customId))
      return invalid(
        `requests.${at}.custom_id: Duplicate custom_id ${customId}; each must be unique`,
      );
    seen.add(customId);
    if (!isRecord(item.params)) return invalid(`requests.${at}.params: Field required`);
    if ('stream' in item.params)
      return invalid(`requests.${at}.params.stream: Streaming is not supported in a batch`);
    const violation = checkAnthropicRequest(item.params, context.ledger);
    if (violation) return { ...violation, message: `requests.${at}.params: ${violation.message}` };
  }
  const taken: FakeBatch['requests'] = [];
  for (const item of requests as { custom_id: string; params: Record<string, unknown> }[]) {
    const reply = context.takeReply();
    if (!reply) {
      context.recordUnexpected(`batch request ${item.custom_id}: the script is exhausted`);
      return { status: 500, type: 'api_error', message: 'fake: the script is exhausted' };
    }
    taken.push({
      customId: item.custom_id,
      model: typeof item.params.model === 'string' ? item.params.model : 'unknown-model',
      reply,
      callNumber: nextCall(),
    });
  }
  return {
    id: `msgbatch_fake_${index}`,
    requests: taken,
    polls: 0,
    isCanceled: false,
    isEnded: false,
    endedAt: null,
    cancelInitiatedAt: null,
  };
}

type Outcome = 'succeeded' | 'errored' | 'canceled' | 'expired';

function outcomeOf(item: FakeBatch['requests'][number], batch: FakeBatch): Outcome {
  if (batch.isCanceled) return 'canceled';
  if (item.reply.kind === 'error') return 'errored';
  return item.reply.batchResult ?? 'succeeded';
}

function renderBatch(batch: FakeBatch, url: string): Record<string, unknown> {
  const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
  // Requests stay `processing` until the whole batch ends, as the reference says.
  for (const item of batch.requests)
    if (batch.isEnded) counts[outcomeOf(item, batch)]++;
    else counts.processing++;
  return {
    id: batch.id,
    type: 'message_batch',
    processing_status: batch.isEnded ? 'ended' : batch.isCanceled ? 'canceling' : 'in_progress',
    request_counts: counts,
    ended_at: batch.endedAt,
    created_at: new Date(CREATED_AT).toISOString(),
    expires_at: new Date(CREATED_AT + BATCH_LIFETIME_MS).toISOString(),
    archived_at: null,
    cancel_initiated_at: batch.cancelInitiatedAt,
    results_url: batch.isEnded ? `${url}/v1/messages/batches/${batch.id}/results` : null,
  };
}

function renderResult(
  item: FakeBatch['requests'][number],
  batch: FakeBatch,
  context: FakeRouteContext,
): Record<string, unknown> {
  const outcome = outcomeOf(item, batch);
  const reply = item.reply;
  if (outcome === 'succeeded' && reply.kind === 'answer')
    return {
      custom_id: item.customId,
      result: {
        type: 'succeeded',
        message: renderMessage(reply, item.model, item.callNumber, context.ledger),
      },
    };
  if (outcome === 'errored' && reply.kind === 'error') {
    const type = reply.errorType ?? DEFAULT_ERROR_TYPES[reply.status] ?? 'api_error';
    return {
      custom_id: item.customId,
      result: {
        type: 'errored',
        error: {
          type: 'error',
          error: { type, message: reply.message ?? `fake ${type}` },
          request_id: `req_fake_batch_${item.callNumber}`,
        },
      },
    };
  }
  return { custom_id: item.customId, result: { type: outcome } };
}

function writeJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake_batch' });
  res.end(JSON.stringify(body));
}

function writeError(res: ServerResponse, status: number, type: string, message: string): void {
  writeJson(res, status, { type: 'error', error: { type, message } });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
