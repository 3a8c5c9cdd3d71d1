import type { ServerResponse } from 'node:http';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import type { FakeProtocolHandler, ProtocolContext } from './fake-provider-server.js';
import type { ScriptedAnswer, ScriptedError, ScriptedUsage } from './script.js';
import { wireStopReason } from './stop-reasons.js';
import type { ThinkingLedger } from './thinking-ledger.js';
import { checkBedrockRequest } from './validate/bedrock-rules.js';

/** `/model/{modelId}/converse` and `/converse-stream`; the id arrives URL-encoded (`:` becomes `%3A`). */
const CALL_PATH = /^\/model\/[^/]+\/(converse|converse-stream)$/;

/** Plausible counts for an answer whose script gives none (the real service never reports zero output). */
const DEFAULT_INPUT_TOKENS = 10;
const DEFAULT_OUTPUT_TOKENS = 5;
/** How many stream deltas a text or a tool's JSON input is split into when the script does not say. */
const DEFAULT_PIECES = 3;

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();
const codec = new EventStreamCodec(
  (bytes) => textDecoder.decode(bytes),
  (text) => textEncoder.encode(text),
);

/** Bedrock's error type for each status the script may ask for (restJson1: `x-amzn-errortype`). */
const ERROR_TYPE_BY_STATUS: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/** Bedrock has no 401 (a bad key is 403 UnrecognizedClientException) and no 529 (overload is 503). */
const STATUS_TRANSLATION: Record<number, { status: number; errorType: string }> = {
  401: { status: 403, errorType: 'UnrecognizedClientException' },
  529: { status: 503, errorType: 'ServiceUnavailableException' },
};

/** One event on the wire: its `:event-type` and JSON payload. */
interface WireEvent {
  type: string;
  payload: Record<string, unknown>;
}

export interface BedrockProtocolOptions {
  /**
   * What `malformedAfterEvents` sends: by default a frame with a broken checksum, which the SDK's decoder
   * rejects; with this set, an in-stream exception event of this type instead (`modelStreamErrorException`,
   * `throttlingException`, `internalServerException`, `validationException`, `serviceUnavailableException`).
   */
  streamExceptionType?: string;
}

/**
 * Amazon Bedrock Converse (JSON) and ConverseStream (AWS binary event stream), as the AWS SDK parses them.
 * Errors carry `x-amzn-errortype`; the script's 529 becomes 503 ServiceUnavailableException and 401 becomes
 * 403 UnrecognizedClientException, since Bedrock answers with neither.
 */
export function createBedrockProtocol(options: BedrockProtocolOptions = {}): FakeProtocolHandler {
  return {
    protocol: 'bedrock',
    matchesCall: (method, path) => method === 'POST' && CALL_PATH.test(path),
    isStream: (path) => path.endsWith('/converse-stream'),
    validate: (request, ledger) =>
      checkBedrockRequest(modelIdOf(request.path), request.isStream, request.body, ledger),
    respondViolation: (res, violation) =>
      writeJson(
        res,
        violation.status,
        { message: violation.message },
        {
          'x-amzn-errortype': violation.type,
        },
      ),
    async respond(context) {
      const { reply, request, res, sleep } = context;
      await sleep(reply.latencyMs ?? 0);
      if (context.isClosed()) return;
      if (reply.kind === 'error') return writeError(res, reply);
      if (request.isStream) return writeStream(context, reply, options);
      writeJson(res, 200, converseBody(reply, context.callNumber, context.ledger));
    },
  };
}

export const bedrockProtocol: FakeProtocolHandler = createBedrockProtocol();

function writeError(res: ServerResponse, error: ScriptedError): void {
  if (error.rawBody !== undefined) {
    // A proxy or gateway in front: its own body, no x-amzn-errortype.
    res.writeHead(error.status, { 'content-type': 'application/json' });
    res.end(error.rawBody);
    return;
  }
  const translated = STATUS_TRANSLATION[error.status];
  const status = translated?.status ?? error.status;
  const errorType =
    error.errorType ??
    translated?.errorType ??
    ERROR_TYPE_BY_STATUS[status] ??
    'InternalServerException';
  const headers: Record<string, string> = { 'x-amzn-errortype': errorType };
  if (error.retryAfter !== undefined) headers['retry-after'] = error.retryAfter;
  writeJson(res, status, { message: error.message ?? `fake ${errorType}` }, headers);
}

function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-requestid': 'fake-request-id',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

/** The model id in the path, decoded (`us.anthropic.claude-…-v1%3A0` → `…-v1:0`). */
function modelIdOf(path: string): string {
  return decodeURIComponent(path.split('/')[2] ?? '');
}

/** The answer's reasoning as Converse content blocks, signed by the ledger. */
function reasoningBlocks(
  answer: ScriptedAnswer,
  callNumber: number,
  ledger: ThinkingLedger,
): Record<string, unknown>[] {
  const scripted = answer.thinking ?? [];
  ledger.recordToolCalls(
    toolCallsOf(answer, callNumber).map((call) => call.id),
    scripted.length,
  );
  return scripted.map((block) =>
    'redacted' in block
      ? {
          reasoningContent: {
            redactedContent: Buffer.from(ledger.issueRedacted()).toString('base64'),
          },
        }
      : {
          reasoningContent: {
            reasoningText: { text: block.text, signature: ledger.sign(block.text) },
          },
        },
  );
}

function converseBody(answer: ScriptedAnswer, callNumber: number, ledger: ThinkingLedger): unknown {
  const content: unknown[] = [...reasoningBlocks(answer, callNumber, ledger)];
  const text = answerText(answer);
  if (text) content.push({ text });
  toolCallsOf(answer, callNumber).forEach(({ id, name, input }) =>
    content.push({ toolUse: { toolUseId: id, name, input } }),
  );
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: stopReasonOf(answer),
    usage: usageOf(answer.usage),
    metrics: { latencyMs: answer.latencyMs ?? 0 },
  };
}

async function writeStream(
  context: ProtocolContext,
  answer: ScriptedAnswer,
  options: BedrockProtocolOptions,
): Promise<void> {
  const { res } = context;
  // Built first: a stop reason Bedrock never sends fails the call before any header goes out.
  const events = streamEvents(answer, context.callNumber, context.ledger);
  res.writeHead(200, {
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-requestid': 'fake-request-id',
  });
  for (const [index, event] of events.entries()) {
    await context.paceEvent(answer, index);
    if (context.isClosed()) return;
    if (index === answer.cutAfterEvents) {
      res.destroy();
      return;
    }
    if (index === answer.streamErrorAfterEvents) {
      res.end(encodeException(answer.streamErrorType ?? 'modelStreamErrorException'));
      return;
    }
    if (index === answer.malformedAfterEvents) {
      res.end(
        options.streamExceptionType
          ? encodeException(options.streamExceptionType)
          : corruptFrame(event),
      );
      return;
    }
    await context.writeEvent(encodeEvent(event));
  }
  res.end();
}

/** The order Bedrock uses: text blocks open with a delta (no start event), tool blocks with a start. */
function streamEvents(
  answer: ScriptedAnswer,
  callNumber: number,
  ledger: ThinkingLedger,
): WireEvent[] {
  const events: WireEvent[] = [{ type: 'messageStart', payload: { role: 'assistant' } }];
  let blockIndex = 0;
  // Reasoning streams as text deltas then its signature (or one redacted delta), each block closed.
  for (const block of reasoningBlocks(answer, callNumber, ledger)) {
    const contentBlockIndex = blockIndex;
    const reasoning = block.reasoningContent as Record<string, unknown>;
    const text = reasoning.reasoningText as { text: string; signature: string } | undefined;
    const deltas: Record<string, unknown>[] = text
      ? [...splitText(text.text).map((piece) => ({ text: piece })), { signature: text.signature }]
      : [{ redactedContent: reasoning.redactedContent }];
    for (const delta of deltas)
      events.push({
        type: 'contentBlockDelta',
        payload: { contentBlockIndex, delta: { reasoningContent: delta } },
      });
    events.push({ type: 'contentBlockStop', payload: { contentBlockIndex } });
    blockIndex += 1;
  }
  const whole = answerText(answer);
  if (whole) {
    for (const text of answer.textChunks ?? splitText(whole)) {
      events.push({
        type: 'contentBlockDelta',
        payload: { contentBlockIndex: blockIndex, delta: { text } },
      });
    }
    events.push({ type: 'contentBlockStop', payload: { contentBlockIndex: blockIndex } });
    blockIndex += 1;
  }
  for (const { id, name, input, inputJson } of toolCallsOf(answer, callNumber)) {
    const contentBlockIndex = blockIndex;
    events.push({
      type: 'contentBlockStart',
      payload: { contentBlockIndex, start: { toolUse: { toolUseId: id, name } } },
    });
    // The stream carries the input as text, so a model can send JSON that does not parse.
    for (const fragment of splitText(inputJson ?? JSON.stringify(input))) {
      events.push({
        type: 'contentBlockDelta',
        payload: { contentBlockIndex, delta: { toolUse: { input: fragment } } },
      });
    }
    events.push({ type: 'contentBlockStop', payload: { contentBlockIndex } });
    blockIndex += 1;
  }
  events.push({ type: 'messageStop', payload: { stopReason: stopReasonOf(answer) } });
  events.push({
    type: 'metadata',
    payload: { usage: usageOf(answer.usage), metrics: { latencyMs: answer.latencyMs ?? 0 } },
  });
  return events;
}

function encodeEvent(event: WireEvent): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: event.type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: textEncoder.encode(JSON.stringify(event.payload)),
  });
}

/** An exception inside a 200 stream, as Bedrock sends when the model fails mid-answer. */
function encodeException(exceptionType: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: exceptionType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: textEncoder.encode(JSON.stringify({ message: `fake ${exceptionType}` })),
  });
}

/** A frame whose trailing message CRC is wrong: the SDK's decoder must reject it. */
function corruptFrame(event: WireEvent): Uint8Array {
  const frame = encodeEvent(event);
  const last = frame.length - 1;
  frame[last] = (frame[last] ?? 0) ^ 0xff;
  return frame;
}

function toolCallsOf(
  answer: ScriptedAnswer,
  callNumber: number,
): { id: string; name: string; input: unknown; inputJson?: string }[] {
  return (answer.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `tooluse_fake${callNumber}_${index}`,
    name: call.name,
    input: call.arguments,
    ...(call.argumentsJson === undefined ? {} : { inputJson: call.argumentsJson }),
  }));
}

function stopReasonOf(answer: ScriptedAnswer): string {
  return wireStopReason('bedrock', answer);
}

function usageOf(usage: ScriptedUsage = {}): Record<string, number> {
  const inputTokens = usage.inputTokens ?? DEFAULT_INPUT_TOKENS;
  const outputTokens = usage.outputTokens ?? DEFAULT_OUTPUT_TOKENS;
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens + cacheRead + cacheWrite,
    ...(usage.cacheReadTokens === undefined ? {} : { cacheReadInputTokens: cacheRead }),
    ...(usage.cacheWriteTokens === undefined ? {} : { cacheWriteInputTokens: cacheWrite }),
  };
}

/** A few pieces, so a stream really arrives in parts. */
function splitText(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / DEFAULT_PIECES));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces.length > 0 ? pieces : [''];
}

/** The answer's text, given whole or only as its stream pieces (as the other protocols take it). */
function answerText(answer: ScriptedAnswer): string {
  return answer.text ?? answer.textChunks?.join('') ?? '';
}
