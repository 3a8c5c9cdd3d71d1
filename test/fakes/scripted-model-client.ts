import { onTestFinished } from 'vitest';
import { toAnthropicRequest } from '../../src/providers/anthropic/to-anthropic-request.js';
import { gatherModelResult } from '../../src/providers/gather-model-result.js';
import { parseModelId } from '../../src/providers/model-id/parse-model-id.js';
import { toOpenAiRequest } from '../../src/providers/openai/to-openai-request.js';
import { toAnthropicStopReason } from '../../src/providers/anthropic/to-anthropic-stop-reason.js';
import { toOpenAiStopReason } from '../../src/providers/openai/to-openai-stop-reason.js';
import { ProviderError, type ProviderErrorKind } from '../../src/providers/provider-error.js';
import { withRetries } from '../../src/providers/retry/with-retries.js';
import type {
  CallOptions,
  ModelClient,
  ModelStopReason,
  ModelRef,
  ModelRequest,
  ModelResult,
  StreamEvent,
  ThinkingSource,
} from '../../src/providers/types.js';
import type { ScriptedAnswer, ScriptedError, ScriptedReply } from './script.js';
import { wireStopReason } from './stop-reasons.js';
import { ThinkingLedger, type Violation } from './thinking-ledger.js';
import { checkAnthropicRequest } from './validate/anthropic-rules.js';
import { checkOpenAiRequest } from './validate/openai-rules.js';

/** One model call as the scripted client saw it. */
export interface ScriptedCall {
  /** The request as the loop built it (a deep copy: the loop mutates its transcript later). */
  request: ModelRequest;
  /** The same request in the provider's wire form (what the SDK would send), for the validators and assertions. */
  body: unknown;
  rawBody: string;
  protocol: 'anthropic' | 'openai';
}

export interface ScriptedClientOptions {
  script?: ScriptedReply[];
  /** The model the client claims to be (default `anthropic::claude-haiku-4-5`, priced in the table). */
  model?: string;
  /** Check every request against the service's documented rules (default on). */
  validate?: boolean;
  /** Called with each request as it arrives (a test can abort from here). */
  onRequest?: (call: ScriptedCall) => void;
  /** Call `assertDone()` when the current test finishes (default on; off only to test the fake itself). */
  checkAtEnd?: boolean;
}

/**
 * `cutAfterEvents` and `streamErrorAfterEvents` count the normalised stream events here (thinking, text
 * pieces, tool calls, usage, stop), not wire events: 0 cuts before anything arrives, so retries still apply.
 */
/** Stream deltas a text is split into when the script gives no `textChunks` (the HTTP fakes use 3 too). */
const DEFAULT_PIECES = 3;
/** The HTTP fakes' counts for an answer whose script gives none. */
const DEFAULT_USAGE = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };

/**
 * An in-process ModelClient that replays the protocol-neutral script (`script.ts`) strictly: a call with no
 * reply left fails (and fails `assertDone()`), and so does a reply never asked for. Each request is
 * recorded, rendered to the provider's wire form and checked by the same rules as the HTTP fakes, without
 * an SDK or a socket. For tests of the loop, compaction, chat and the audit's review; provider and
 * end-to-end tests keep the HTTP fakes.
 */
export class ScriptedModelClient implements ModelClient {
  readonly ref: ModelRef;
  readonly calls: ScriptedCall[] = [];
  readonly unexpected: string[] = [];
  readonly violations: Violation[] = [];
  private readonly queue: ScriptedReply[];
  private readonly ledger = new ThinkingLedger();
  private readonly isValidating: boolean;
  private readonly onRequest: ((call: ScriptedCall) => void) | undefined;

  constructor(options: ScriptedClientOptions = {}) {
    this.ref = parseModelId(options.model ?? 'anthropic::claude-haiku-4-5');
    this.queue = [...(options.script ?? [])];
    this.isValidating = options.validate ?? true;
    this.onRequest = options.onRequest;
    if (options.checkAtEnd ?? true) onTestFinished(() => this.assertDone());
  }

  enqueue(...replies: ScriptedReply[]): void {
    this.queue.push(...replies);
  }

  get pending(): number {
    return this.queue.length;
  }

  /** The HTTP fakes' name for the same list, so tests read alike. */
  get modelCalls(): ScriptedCall[] {
    return this.calls;
  }

  /** Fails when a call found no reply, a request broke the service's rules, or a reply was never asked for. */
  assertDone(): void {
    if (this.unexpected.length > 0)
      throw new Error(`scripted client: unexpected calls:\n${this.unexpected.join('\n')}`);
    if (this.violations.length > 0)
      throw new Error(
        `scripted client: requests the service would reject:\n${this.violations.map((v) => `${v.status} ${v.type}: ${v.message}`).join('\n')}`,
      );
    if (this.queue.length > 0)
      throw new Error(
        `scripted client: ${this.queue.length} scripted replies were never requested`,
      );
  }

  /** This client with the production retry wrapper around it (quick waits), as createModelClient returns. */
  withRetries(): ModelClient {
    return withRetries(this, { baseDelayMs: 1, maxDelayMs: 5 });
  }

  /** A client for another model that answers from this script (chat's /model): one queue, one record. */
  asModel(model: string | ModelRef): ModelClient {
    const ref = typeof model === 'string' ? parseModelId(model) : model;
    return {
      ref,
      stream: (request, options) => this.streamAs(ref, request, options),
      complete: (request, options) => gatherModelResult(this.streamAs(ref, request, options)),
    };
  }

  complete(request: ModelRequest, options?: CallOptions): Promise<ModelResult> {
    return gatherModelResult(this.stream(request, options));
  }

  stream(request: ModelRequest, options?: CallOptions): AsyncIterable<StreamEvent> {
    return this.streamAs(this.ref, request, options);
  }

  private async *streamAs(
    ref: ModelRef,
    request: ModelRequest,
    options: CallOptions = {},
  ): AsyncGenerator<StreamEvent> {
    const call = this.record(ref, request);
    this.onRequest?.(call);
    const reply = this.queue.shift();
    if (reply === undefined) {
      this.unexpected.push(`call ${this.calls.length}: no scripted reply left`);
      throw new Error('scripted client: a model call beyond the script');
    }
    const violation = this.isValidating ? this.check(call) : undefined;
    if (violation !== undefined) {
      this.violations.push(violation);
      throw new ProviderError('bad_request', ref, violation.message, { status: 400 });
    }
    await this.wait(ref, reply.latencyMs, options.signal);
    if (reply.kind === 'error') throw this.toError(ref, reply);
    yield* this.answer(ref, reply, this.calls.length, options.signal);
  }

  private record(ref: ModelRef, request: ModelRequest): ScriptedCall {
    const copy = structuredClone(request);
    const protocol = ref.provider === 'anthropic' ? 'anthropic' : 'openai';
    const body =
      protocol === 'anthropic' ? toAnthropicRequest(ref, copy) : toOpenAiRequest(ref, copy);
    const call: ScriptedCall = { request: copy, body, rawBody: JSON.stringify(body), protocol };
    this.calls.push(call);
    return call;
  }

  private check(call: ScriptedCall): Violation | undefined {
    // The wire body as the server would parse it, so the rules see JSON, not our objects.
    const body = JSON.parse(call.rawBody) as unknown;
    return call.protocol === 'anthropic'
      ? checkAnthropicRequest(body, this.ledger)
      : checkOpenAiRequest(body, this.ledger);
  }

  private async *answer(
    ref: ModelRef,
    reply: ScriptedAnswer,
    callNumber: number,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<StreamEvent> {
    const source: ThinkingSource = ref.provider === 'anthropic' ? 'anthropic' : 'openai';
    const events: StreamEvent[] = [];
    for (const block of reply.thinking ?? []) {
      if ('redacted' in block) {
        events.push({
          type: 'thinking',
          part: { type: 'redacted_thinking', source, data: this.ledger.issueRedacted() },
        });
      } else {
        events.push({ type: 'thinking_delta', text: block.text });
        const signature = this.ledger.sign(block.text);
        events.push({
          type: 'thinking',
          part: { type: 'thinking', source, text: block.text, signature },
        });
      }
    }
    const text = reply.text ?? reply.textChunks?.join('') ?? '';
    const chunks = reply.textChunks ?? (text === '' ? [] : splitEvenly(text, DEFAULT_PIECES));
    for (const piece of chunks) events.push({ type: 'text_delta', text: piece });
    const ids: string[] = [];
    for (const [index, call] of (reply.toolCalls ?? []).entries()) {
      const id =
        call.id ??
        (source === 'anthropic'
          ? `toolu_fake_${callNumber}_${index}`
          : `call_fake_${callNumber}_${index}`);
      ids.push(id);
      events.push({
        type: 'tool_call',
        call: { id, name: call.name, arguments: parseArguments(call) },
      });
    }
    this.ledger.recordToolCalls(ids, reply.thinking?.length ?? 0);
    events.push({ type: 'usage', usage: { ...DEFAULT_USAGE, ...reply.usage } });
    events.push({ type: 'stop', reason: this.stopReasonOf(source, reply) });

    for (const [index, event] of events.entries()) {
      if (reply.streamErrorAfterEvents === index)
        throw new ProviderError(errorKind(529, reply.streamErrorType), ref, 'stream error');
      if (reply.cutAfterEvents === index)
        throw new ProviderError('connection', ref, 'the connection closed mid-stream');
      if (index > 0) await this.wait(ref, reply.eventDelayMs, signal);
      yield event;
    }
  }

  /** A stop reason the service never sends is a script error, recorded so `assertDone()` fails. */
  private stopReasonOf(source: ThinkingSource, reply: ScriptedAnswer): ModelStopReason {
    try {
      return normaliseStop(source, reply);
    } catch (error) {
      this.unexpected.push((error as Error).message);
      throw error;
    }
  }

  private toError(ref: ModelRef, reply: ScriptedError): ProviderError {
    const retryAfterMs =
      reply.retryAfterMs !== undefined
        ? Number(reply.retryAfterMs)
        : reply.retryAfter !== undefined && /^\d+$/u.test(reply.retryAfter)
          ? Number(reply.retryAfter) * 1000
          : undefined;
    return new ProviderError(
      errorKind(reply.status, reply.errorType),
      ref,
      reply.message ?? `HTTP ${reply.status}`,
      { status: reply.status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
    );
  }

  /** Waits `ms` (none when absent); an abort ends the wait with the error real clients throw. */
  private async wait(
    ref: ModelRef,
    ms: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (signal?.aborted) throw aborted(ref);
    if (ms === undefined || ms <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(aborted(ref));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function aborted(ref: ModelRef): ProviderError {
  return new ProviderError('aborted', ref, 'the request was cancelled');
}

/** A strict scripted client for the current test (see ScriptedModelClient). */
export function scriptedClient(options: ScriptedClientOptions = {}): ScriptedModelClient {
  return new ScriptedModelClient(options);
}

/** The kind a real client classifies a status (and the provider's error type) as. */
function errorKind(status: number, errorType: string | undefined): ProviderErrorKind {
  const type = errorType?.toLowerCase() ?? '';
  if (type.includes('overloaded') || status === 529) return 'overloaded';
  if (type.includes('throttl') || type.includes('rate_limit') || status === 429)
    return 'rate_limited';
  if (status === 401) return 'auth';
  if (status === 403) return 'permission';
  if (status === 404) return 'model_not_found';
  if (status === 413) return 'context_too_long';
  if (status >= 500) return 'server';
  return 'bad_request';
}

/** Arguments as a provider hands them on: parsed JSON, or the raw text when it is not JSON. */
function parseArguments(call: NonNullable<ScriptedAnswer['toolCalls']>[number]): unknown {
  if (call.argumentsJson === undefined) return call.arguments;
  try {
    return JSON.parse(call.argumentsJson) as unknown;
  } catch {
    return call.argumentsJson;
  }
}

function splitEvenly(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size)
    parts.push(text.slice(start, start + size));
  return parts;
}

/** The scripted stop as the service would send it, read by the provider's own mapping (throws for one it never sends). */
function normaliseStop(source: ThinkingSource, reply: ScriptedAnswer): ModelStopReason {
  if (source === 'anthropic') return toAnthropicStopReason(wireStopReason('anthropic', reply));
  const hasToolCalls = (reply.toolCalls?.length ?? 0) > 0;
  return toOpenAiStopReason(
    wireStopReason('openai', reply),
    hasToolCalls,
    reply.stopReason === 'refusal',
  );
}
