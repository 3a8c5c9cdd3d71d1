import type { ThinkingLedger, Violation } from '../thinking-ledger.js';
import { serviceModelFor } from './service-models.js';
import { isRecord } from './thinking-rules.js';

/** A function name, as the API states it. */
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** `tool_calls[].id`: OpenAI refuses longer ids with `string_above_max_length`. */
const MAX_TOOL_CALL_ID_CHARS = 40;
/** The fields an OpenAI chat message may carry; anything else (such as `reasoning_content`) is refused. */
const MESSAGE_FIELDS = new Set([
  'role',
  'content',
  'name',
  'tool_calls',
  'tool_call_id',
  'refusal',
  'audio',
  'function_call',
]);

const invalid = (message: string, param: string | null, code: string | null): Violation => ({
  status: 400,
  type: 'invalid_request_error',
  message,
  ...(param === null ? {} : { param }),
  ...(code === null ? {} : { code }),
});

/**
 * The chat-completions rules OpenAI documents and enforces: reasoning models take `max_completion_tokens`
 * and only the default temperature; the output limit; every `tool` message answers a `tool_calls` id of the
 * assistant message right before it, and every such id is answered.
 */
export function checkOpenAiRequest(body: unknown, ledger: ThinkingLedger): Violation | undefined {
  if (!isRecord(body))
    return invalid('We could not parse the JSON body of your request.', null, null);
  const model = typeof body.model === 'string' ? body.model : '';
  const service = serviceModelFor(model);
  // OpenAI's own reasoning models; routed names (`openai/o3`) go through servers that translate.
  const isReasoning = service.isOpenAiReasoning && !model.includes('/');
  if (isReasoning && body.max_tokens !== undefined)
    return invalid(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens',
      'unsupported_parameter',
    );
  if (isReasoning && body.temperature !== undefined && body.temperature !== 1)
    return invalid(
      `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`,
      'temperature',
      'unsupported_value',
    );
  const limit = body.max_completion_tokens ?? body.max_tokens;
  if (typeof limit === 'number' && limit > service.maxOutputTokens)
    return invalid(
      `max_tokens is too large: ${limit}. This model supports at most ${service.maxOutputTokens} completion tokens, whereas you provided ${limit}.`,
      body.max_completion_tokens === undefined ? 'max_tokens' : 'max_completion_tokens',
      'invalid_value',
    );
  const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  for (const [index, tool] of tools.entries()) {
    const name = isRecord(tool.function) ? String(tool.function.name) : '';
    if (!FUNCTION_NAME.test(name))
      return invalid(
        `Invalid 'tools[${index}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `tools[${index}].function.name`,
        'invalid_value',
      );
  }
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  let open: string[] = [];
  for (const [index, message] of messages.entries()) {
    // Compatible servers take extra fields (DeepSeek needs `reasoning_content`); OpenAI's own schema does not.
    const extra = Object.keys(message).find((key) => !MESSAGE_FIELDS.has(key));
    if (extra !== undefined && (service.isOpenAiOwn || extra !== 'reasoning_content'))
      return invalid(
        `Additional properties are not allowed ('${extra}' was unexpected) - 'messages.${index}'`,
        `messages.[${index}]`,
        null,
      );
    if (message.role === 'tool') {
      const id = String(message.tool_call_id);
      if (!open.includes(id))
        return invalid(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
          null,
        );
      open = open.filter((pending) => pending !== id);
      continue;
    }
    if (open.length > 0)
      return invalid(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`,
        `messages.[${index}].role`,
        null,
      );
    const calls =
      message.role === 'assistant' && Array.isArray(message.tool_calls) ? message.tool_calls : [];
    for (const [offset, call] of calls.entries()) {
      const id = isRecord(call) ? String(call.id) : '';
      if (id.length > MAX_TOOL_CALL_ID_CHARS)
        return invalid(
          `Invalid 'messages[${index}].tool_calls[${offset}].id': string too long. Expected a string with maximum length ${MAX_TOOL_CALL_ID_CHARS}, but got a string with length ${id.length} instead.`,
          `messages[${index}].tool_calls[${offset}].id`,
          'string_above_max_length',
        );
    }
    open = calls.filter(isRecord).map((call) => String(call.id));
    if (
      message.role === 'assistant' &&
      calls.length === 0 &&
      (message.content === null || message.content === undefined)
    )
      return invalid(
        "Invalid value for 'content': expected a string, got null.",
        `messages.[${index}].content`,
        null,
      );
  }
  if (open.length > 0)
    return invalid(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`,
      `messages.[${messages.length - 1}].role`,
      null,
    );
  return service.requiresReasoningContent ? checkReasoningPassedBack(messages, ledger) : undefined;
}

/** DeepSeek's thinking mode: in the current tool loop, each assistant turn that reasoned carries it back. */
function checkReasoningPassedBack(
  messages: Record<string, unknown>[],
  ledger: ThinkingLedger,
): Violation | undefined {
  const loopStart = messages.findLastIndex((message) => message.role === 'user') + 1;
  for (const [index, message] of messages.entries()) {
    if (index < loopStart || message.role !== 'assistant' || !Array.isArray(message.tool_calls))
      continue;
    const [first] = message.tool_calls.filter(isRecord);
    const reasoned = first !== undefined && ledger.thinkingBefore(String(first.id)) > 0;
    if (reasoned && typeof message.reasoning_content !== 'string')
      return invalid(
        `Missing \`reasoning_content\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
        null,
        'invalid_request_error',
      );
  }
  return undefined;
}
