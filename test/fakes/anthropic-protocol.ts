import type { ServerResponse } from 'node:http';
import { renderMessage, renderStreamEvents, type AnthropicWireEvent } from './anthropic-answer.js';
import type { FakeProtocolHandler, ProtocolContext } from './fake-provider-server.js';
import type { ScriptedAnswer, ScriptedError } from './script.js';
import type { Violation } from './thinking-ledger.js';
import { checkAnthropicRequest } from './validate/anthropic-rules.js';

/** The error `type` the real API sends for each status when the script names none. */
export const DEFAULT_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** What the fake writes in place of an event when asked for a malformed one. */
export const MALFORMED_ANTHROPIC_EVENT =
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":\n\n';

/** A fixed creation date for listed models, so listings are stable. */
const LISTED_MODEL_CREATED_AT = '2025-01-01T00:00:00Z';

/** Anthropic Messages API: `POST /v1/messages` (JSON and SSE) and `GET /v1/models`. */
export const anthropicProtocol: FakeProtocolHandler = {
  protocol: 'anthropic',
  matchesCall: (method, path) => method === 'POST' && path === '/v1/messages',
  isStream: (_path, body) => isRecord(body) && body.stream === true,
  respond,
  // The OpenAI protocol owns `/v1/models` too: the Anthropic SDK always sends `anthropic-version`.
  matchesListing: (method, path, headers) =>
    method === 'GET' && path === '/v1/models' && headers['anthropic-version'] !== undefined,
  respondListing,
  validate: (request, ledger) => checkAnthropicRequest(request.body, ledger),
  respondViolation: (res: ServerResponse, violation: Violation) =>
    writeJson(
      res,
      violation.status,
      { type: 'error', error: { type: violation.type, message: violation.message } },
      'req_fake_rejected',
      { 'x-should-retry': 'false' },
    ),
};

async function respond(context: ProtocolContext): Promise<void> {
  const { reply } = context;
  await context.sleep(reply.latencyMs ?? 0);
  if (context.isClosed()) return;
  if (reply.kind === 'error') return respondError(context, reply);
  const body = context.request.body;
  const model = isRecord(body) && typeof body.model === 'string' ? body.model : 'unknown-model';
  if (!context.request.isStream) {
    writeJson(
      context.res,
      200,
      renderMessage(reply, model, context.callNumber, context.ledger),
      requestId(context),
    );
    return;
  }
  await respondStream(
    context,
    reply,
    renderStreamEvents(reply, model, context.callNumber, context.ledger),
  );
}

async function respondStream(
  context: ProtocolContext,
  answer: ScriptedAnswer,
  events: AnthropicWireEvent[],
): Promise<void> {
  const { res } = context;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'request-id': requestId(context),
  });
  for (const [sent, event] of events.entries()) {
    await context.paceEvent(answer, sent);
    if (context.isClosed()) return;
    if (sent === answer.cutAfterEvents) {
      // Drop the socket without the closing chunk: the client sees a connection that broke mid-answer.
      res.destroy();
      return;
    }
    if (sent === answer.streamErrorAfterEvents) {
      // An error inside a 200 stream, as the API sends when it overloads mid-answer.
      const type = answer.streamErrorType ?? 'overloaded_error';
      const data = { type: 'error', error: { type, message: `fake ${type} mid-stream` } };
      res.end(`${answer.dataOnly ? '' : 'event: error\n'}data: ${JSON.stringify(data)}\n\n`);
      return;
    }
    if (sent === answer.malformedAfterEvents) {
      // A `data:` line that is not JSON: the SDK fails to parse it and throws.
      res.end(MALFORMED_ANTHROPIC_EVENT);
      return;
    }
    // Wait until each event is on the wire, so a later cut never swallows it.
    await context.writeEvent(
      `${answer.dataOnly ? '' : `event: ${event.event}\n`}data: ${JSON.stringify(event.data)}\n\n`,
    );
  }
  res.end();
}

function respondError(context: ProtocolContext, error: ScriptedError): void {
  const type =
    error.errorType ??
    DEFAULT_ERROR_TYPES[error.status] ??
    (error.status >= 500 ? 'api_error' : 'invalid_request_error');
  const headers: Record<string, string> = {
    ...(error.retryAfter === undefined ? {} : { 'retry-after': error.retryAfter }),
    ...(error.retryAfterMs === undefined ? {} : { 'retry-after-ms': error.retryAfterMs }),
    ...(error.shouldRetry === undefined ? {} : { 'x-should-retry': error.shouldRetry }),
  };
  if (error.rawBody !== undefined) {
    context.res.writeHead(error.status, { 'content-type': 'application/json', ...headers });
    context.res.end(error.rawBody);
    return;
  }
  const message = error.message ?? `fake ${type} (HTTP ${error.status})`;
  writeJson(
    context.res,
    error.status,
    { type: 'error', error: { type, message } },
    requestId(context),
    headers,
  );
}

function respondListing(res: ServerResponse, models: string[]): void {
  const data = models.map((id) => ({
    type: 'model',
    id,
    display_name: displayName(id),
    created_at: LISTED_MODEL_CREATED_AT,
  }));
  writeJson(
    res,
    200,
    { data, has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null },
    'req_fake_models',
  );
}

function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  id: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': id, ...headers });
  res.end(JSON.stringify(body));
}

function requestId(context: ProtocolContext): string {
  return `req_fake_${context.callNumber}`;
}

/** `claude-sonnet-4-5` → `Claude Sonnet 4.5`, as the API names its models. */
function displayName(id: string): string {
  return id
    .split('-')
    .map((part) => (/^\d+$/.test(part) ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join(' ')
    .replace(/(\d) (\d)/g, '$1.$2');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
