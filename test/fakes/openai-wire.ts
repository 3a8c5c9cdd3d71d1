import type {
  OpenAiStreamVariant,
  ScriptedAnswer,
  ScriptedError,
  ScriptedUsage,
} from './script.js';
import { wireStopReason } from './stop-reasons.js';

/** OpenAI chat-completions wire objects built from a protocol-neutral scripted reply. */

/** A fixed timestamp, so recorded answers are deterministic. */
export const CREATED_EPOCH_SECONDS = 1_700_000_000;
/** Token counts used when the script gives none. */
const DEFAULT_INPUT_TOKENS = 10;
const DEFAULT_OUTPUT_TOKENS = 5;
/** How many deltas a text or argument string is cut into when the script does not say. */
const DEFAULT_PIECES = 3;

export type OpenAiFinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter';

export interface WireToolCall {
  id: string;
  name: string;
  argumentsJson: string;
}

export interface WireAnswer {
  id: string;
  model: string;
  /** `reasoning_content`, as DeepSeek, vLLM and llama.cpp send thinking. */
  reasoning: string;
  text: string;
  textChunks: string[];
  /** A refusal's text, sent in `refusal` instead of `content` (the script's `stopReason: 'refusal'`). */
  refusal: string | null;
  toolCalls: WireToolCall[];
  finishReason: OpenAiFinishReason;
  usage: Record<string, unknown>;
}

/** The answer in OpenAI's terms: ids, finish reason, usage (prompt tokens include cached ones, as OpenAI counts them). */
export function toWireAnswer(
  answer: ScriptedAnswer,
  model: string,
  callNumber: number,
): WireAnswer {
  const textChunks = answer.textChunks ?? splitIntoPieces(answer.text ?? '');
  const toolCalls = (answer.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_fake_${callNumber}_${index}`,
    name: call.name,
    argumentsJson: call.argumentsJson ?? JSON.stringify(call.arguments ?? {}),
  }));
  const variant = answer.openai ?? {};
  const finishReason = wireStopReason('openai', answer) as OpenAiFinishReason;
  const text = answer.text ?? textChunks.join('');
  const isRefusal = answer.stopReason === 'refusal';
  return {
    id: `chatcmpl-fake-${callNumber}`,
    model,
    reasoning: (answer.thinking ?? []).map((block) => ('text' in block ? block.text : '')).join(''),
    text: isRefusal ? '' : text,
    textChunks: isRefusal ? [] : textChunks,
    refusal: isRefusal ? text : null,
    toolCalls,
    finishReason:
      variant.stopWithToolCalls && finishReason === 'tool_calls' ? 'stop' : finishReason,
    usage: toWireUsage(answer.usage ?? {}),
  };
}

function toWireUsage(usage: ScriptedUsage): Record<string, unknown> {
  const cached = usage.cacheReadTokens ?? 0;
  // OpenAI has no cache-write count: written tokens are ordinary prompt tokens.
  const prompt =
    (usage.inputTokens ?? DEFAULT_INPUT_TOKENS) + (usage.cacheWriteTokens ?? 0) + cached;
  const completion = usage.outputTokens ?? DEFAULT_OUTPUT_TOKENS;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  };
}

/** A whole `chat.completion` object, as the non-streaming endpoint answers. */
export function toCompletionJson(wire: WireAnswer): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content:
      (wire.text === '' && wire.toolCalls.length > 0) || wire.refusal !== null ? null : wire.text,
    refusal: wire.refusal,
    annotations: [],
    ...(wire.reasoning === '' ? {} : { reasoning_content: wire.reasoning }),
  };
  if (wire.toolCalls.length > 0) {
    message['tool_calls'] = wire.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argumentsJson },
    }));
  }
  return {
    id: wire.id,
    object: 'chat.completion',
    created: CREATED_EPOCH_SECONDS,
    model: wire.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: wire.finishReason }],
    usage: wire.usage,
    system_fingerprint: 'fp_fake',
  };
}

/**
 * The `chat.completion.chunk` sequence of a streamed answer: a role delta, content deltas,
 * per tool call a header delta (index, id, type, name, empty arguments) then argument fragments,
 * a final chunk with the finish reason, and a usage chunk when asked for.
 */
export function toCompletionChunks(
  wire: WireAnswer,
  includeUsage: boolean,
  variant: OpenAiStreamVariant = {},
): Record<string, unknown>[] {
  const chunk = (
    delta: Record<string, unknown>,
    finishReason: OpenAiFinishReason | null = null,
  ) => ({
    id: wire.id,
    object: 'chat.completion.chunk',
    created: CREATED_EPOCH_SECONDS,
    model: wire.model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: Record<string, unknown>[] = [
    chunk({ role: 'assistant', content: '', refusal: null }),
  ];
  for (const piece of splitIntoPieces(wire.reasoning))
    chunks.push(chunk({ reasoning_content: piece, content: null }));
  for (const piece of wire.textChunks) chunks.push(chunk({ content: piece }));
  for (const piece of splitIntoPieces(wire.refusal ?? '')) chunks.push(chunk({ refusal: piece }));
  wire.toolCalls.forEach((call, index) => {
    if (variant.wholeToolCalls) {
      // Some servers send each call whole, without an index.
      chunks.push(
        chunk({
          tool_calls: [
            {
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.argumentsJson },
            },
          ],
        }),
      );
      return;
    }
    chunks.push(
      chunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const fragment of splitIntoPieces(call.argumentsJson)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  });
  chunks.push(chunk({}, wire.finishReason));
  if (includeUsage) {
    chunks.push({
      id: wire.id,
      object: 'chat.completion.chunk',
      created: CREATED_EPOCH_SECONDS,
      model: wire.model,
      system_fingerprint: 'fp_fake',
      choices: [],
      usage: wire.usage,
    });
  }
  return chunks;
}

/** Cuts a string into a few pieces on code-point boundaries (never an empty piece). */
function splitIntoPieces(text: string, pieces = DEFAULT_PIECES): string[] {
  const points = Array.from(text);
  if (points.length === 0) return [];
  const size = Math.ceil(points.length / pieces);
  const result: string[] = [];
  for (let start = 0; start < points.length; start += size)
    result.push(points.slice(start, start + size).join(''));
  return result;
}

const DEFAULT_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
  500: 'server_error',
  503: 'server_error',
};

const DEFAULT_ERROR_CODES: Record<number, string> = {
  401: 'invalid_api_key',
  404: 'model_not_found',
  429: 'rate_limit_exceeded',
};

/** Values OpenAI sends as `code` (the script's `errorType` names them); anything else is sent as `type`. */
const KNOWN_CODES = new Set([
  'context_length_exceeded',
  'insufficient_quota',
  'invalid_api_key',
  'model_not_found',
  'rate_limit_exceeded',
]);

/** OpenAI's error body: `{ error: { message, type, param, code } }`, with its usual type and code for the status. */
export function toErrorJson(
  error: ScriptedError,
  bearerToken: string | undefined,
): Record<string, unknown> {
  const scripted = error.errorType;
  const isCode = scripted !== undefined && KNOWN_CODES.has(scripted);
  const code = isCode ? scripted : (DEFAULT_ERROR_CODES[error.status] ?? null);
  // OpenAI reports an exhausted quota with the same type as code.
  const type =
    code === 'insufficient_quota'
      ? 'insufficient_quota'
      : ((isCode ? undefined : scripted) ?? DEFAULT_ERROR_TYPES[error.status] ?? 'api_error');
  return {
    error: {
      message: error.message ?? defaultMessage(error.status, code, bearerToken),
      type,
      param: code === 'context_length_exceeded' ? 'messages' : null,
      code,
    },
  };
}

function defaultMessage(
  status: number,
  code: string | null,
  bearerToken: string | undefined,
): string {
  // Like servers that echo the key they rejected: clients must never pass this message on.
  if (status === 401) return `Incorrect API key provided: ${bearerToken ?? '(none)'}.`;
  if (code === 'context_length_exceeded') {
    return "This model's maximum context length is 128000 tokens.";
  }
  if (code === 'insufficient_quota') {
    return 'You exceeded your current quota, please check your plan and billing details.';
  }
  if (code === 'model_not_found') {
    return 'The model does not exist or you do not have access to it.';
  }
  return `fake error ${status}`;
}
