import type { ServerResponse } from 'node:http';
import type { FakeProtocolHandler, ProtocolContext } from './fake-provider-server.js';
import {
  CREATED_EPOCH_SECONDS,
  toCompletionChunks,
  toCompletionJson,
  toErrorJson,
  toWireAnswer,
  type WireAnswer,
} from './openai-wire.js';
import type { ScriptedAnswer, ScriptedError } from './script.js';
import { checkOpenAiRequest } from './validate/openai-rules.js';

/** What the fake writes in place of an event when asked for a malformed one: a `data:` line that is not JSON. */
export const MALFORMED_OPENAI_EVENT = 'data: {"id": "chatcmpl-broken", "choices": [\n\n';

/**
 * OpenAI chat completions (`POST …/chat/completions`, JSON or SSE) and model listing (`GET …/models`),
 * under any base-URL prefix so `local-<port>`, Ollama and OpenRouter style URLs work too.
 */
export const openaiProtocol: FakeProtocolHandler = {
  protocol: 'openai',

  matchesCall: (method, path) => method === 'POST' && path.endsWith('/chat/completions'),

  isStream: (_path, body) => isRecord(body) && body['stream'] === true,

  validate: (request, ledger) => checkOpenAiRequest(request.body, ledger),
  respondViolation(res, violation) {
    res.writeHead(violation.status, {
      'content-type': 'application/json',
      'x-should-retry': 'false',
    });
    res.end(
      JSON.stringify({
        error: {
          message: violation.message,
          type: violation.type,
          param: violation.param ?? null,
          code: violation.code ?? null,
        },
      }),
    );
  },

  // Anthropic lists models at the same path: tell them apart by its version header.
  matchesListing: (method, path, headers) =>
    method === 'GET' &&
    path.endsWith('/models') &&
    (headers['authorization'] ?? '').startsWith('Bearer ') &&
    headers['anthropic-version'] === undefined,

  respondListing(res: ServerResponse, models: string[]): void {
    const data = models.map((id) => ({
      id,
      object: 'model',
      created: CREATED_EPOCH_SECONDS,
      owned_by: 'fake',
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data }));
  },

  async respond(context: ProtocolContext): Promise<void> {
    const { reply } = context;
    await context.sleep(reply.latencyMs ?? 0);
    if (context.isClosed()) return;
    if (reply.kind === 'error') return writeError(context, reply);
    const body = isRecord(context.request.body) ? context.request.body : {};
    const model = typeof body['model'] === 'string' ? body['model'] : 'fake-model';
    const wire = toWireAnswer(reply, model, context.callNumber);
    // Tool calls that came with reasoning: DeepSeek wants it back while their loop goes on.
    if (wire.reasoning !== '')
      context.ledger.recordToolCalls(
        wire.toolCalls.map((call) => call.id),
        1,
      );
    if (!context.request.isStream) {
      context.res.writeHead(200, {
        'content-type': 'application/json',
        'x-request-id': `req_fake_${context.callNumber}`,
      });
      context.res.end(JSON.stringify(toCompletionJson(wire)));
      return;
    }
    const streamOptions = body['stream_options'];
    const includeUsage =
      isRecord(streamOptions) && streamOptions['include_usage'] === true && !reply.openai?.noUsage;
    await writeStream(context, reply, wire, includeUsage);
  },
};

function writeError(context: ProtocolContext, error: ScriptedError): void {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-request-id': `req_fake_${context.callNumber}`,
  };
  if (error.retryAfter !== undefined) headers['retry-after'] = error.retryAfter;
  if (error.retryAfterMs !== undefined) headers['retry-after-ms'] = error.retryAfterMs;
  if (error.shouldRetry !== undefined) headers['x-should-retry'] = error.shouldRetry;
  const authorization = context.request.headers['authorization'] ?? '';
  const token = authorization.startsWith('Bearer ')
    ? authorization.slice('Bearer '.length)
    : undefined;
  context.res.writeHead(error.status, headers);
  // A server or proxy that answers in its own words (`{"detail":"Not Found"}`), not OpenAI's error JSON.
  context.res.end(error.rawBody ?? JSON.stringify(toErrorJson(error, token)));
}

async function writeStream(
  context: ProtocolContext,
  answer: ScriptedAnswer,
  wire: WireAnswer,
  includeUsage: boolean,
): Promise<void> {
  const { res } = context;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': `req_fake_${context.callNumber}`,
  });
  const events = [
    ...toCompletionChunks(wire, includeUsage, answer.openai).map(
      (chunk) => `data: ${JSON.stringify(chunk)}\n\n`,
    ),
    ...(answer.openai?.noDone ? [] : ['data: [DONE]\n\n']),
  ];
  for (const [sent, event] of events.entries()) {
    await context.paceEvent(answer, sent);
    if (context.isClosed()) return;
    if (sent === answer.cutAfterEvents) {
      res.destroy();
      return;
    }
    if (sent === answer.streamErrorAfterEvents) {
      // An error chunk inside a 200 stream, as OpenAI and compatible servers send when a model fails mid-answer.
      const type = answer.streamErrorType ?? 'server_error';
      const error = { message: `fake ${type} mid-stream`, type, param: null, code: null };
      res.end(`data: ${JSON.stringify({ error })}\n\n`);
      return;
    }
    if (sent === answer.malformedAfterEvents) await context.writeEvent(MALFORMED_OPENAI_EVENT);
    await context.writeEvent(event);
  }
  res.end();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
