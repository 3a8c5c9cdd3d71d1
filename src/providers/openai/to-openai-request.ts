import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { modelFactsFor } from '../model-facts/model-facts-for.js';
import { planOutputTokens } from '../model-facts/plan-output-tokens.js';
import { ProviderError } from '../provider-error.js';
import { fitToolCallIds } from '../tool-call-ids/fit-tool-call-ids.js';
import { TOOL_CALL_ID_RULES } from '../tool-call-ids/tool-call-id-rules.js';
import type {
  DocumentInput,
  Message,
  ModelRef,
  ModelRequest,
  ToolCall,
  ToolDefinition,
} from '../types.js';

/**
 * Whether to send `max_completion_tokens` and no temperature: OpenAI reasoning models (o1, o3, o4-mini,
 * gpt-5…, thinking `always` in the model facts) reject `max_tokens` and any temperature but the default.
 * Only for OpenAI's own bare names: OpenRouter ids (`openai/o3-mini`) take `max_tokens`, which OpenRouter
 * translates itself.
 */
export function isReasoningModel(ref: ModelRef): boolean {
  return !ref.model.includes('/') && modelFactsFor(ref).thinking === 'always';
}

/**
 * The chat-completions request for one streamed call. Reasoning models get `max_completion_tokens` and no
 * temperature; every other model (and every compatible server, which may not know the newer field) gets
 * `max_tokens`. Cache hints and the reasoning budget have no chat-completions equivalent and are ignored.
 * `reasoning_content` a compatible server sent goes back only on the current tool loop's turns (DeepSeek
 * requires it there; OpenAI's own models never send it, so never receive it).
 */
export function toOpenAiRequest(
  ref: ModelRef,
  request: ModelRequest,
): ChatCompletionCreateParamsStreaming {
  const isReasoning = isReasoningModel(ref);
  // Reasoning tokens count against the same limit, so they get room on top of the answer's share.
  const { maxTokens } = planOutputTokens(modelFactsFor(ref), request);
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  // The current tool loop: the turns since the last prompt, whose reasoning a server may need back.
  const conversation = fitToolCallIds(request.messages, TOOL_CALL_ID_RULES.openai);
  const loopStart = conversation.findLastIndex((message) => message.role === 'user') + 1;
  for (const [index, message] of conversation.entries())
    messages.push(...toOpenAiMessages(ref, message, index >= loopStart));
  return {
    model: ref.model,
    messages,
    ...(request.tools && request.tools.length > 0
      ? { tools: request.tools.map(toOpenAiTool) }
      : {}),
    ...(isReasoning ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens }),
    ...(request.temperature !== undefined && !isReasoning
      ? { temperature: request.temperature }
      : {}),
    stream: true,
    // Without it the stream carries no token counts.
    stream_options: { include_usage: true },
  };
}

function toOpenAiMessages(
  ref: ModelRef,
  message: Message,
  isInToolLoop: boolean,
): ChatCompletionMessageParam[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: withDocuments(ref, message.text, message.documents ?? []) }];
    case 'assistant': {
      const reasoning = isInToolLoop && message.toolCalls.length > 0 ? reasoningOf(message) : '';
      return [
        {
          role: 'assistant',
          // Chat completions wants null rather than '' beside tool calls.
          content: message.text.trim() === '' && message.toolCalls.length > 0 ? null : message.text,
          ...(message.toolCalls.length > 0
            ? { tool_calls: message.toolCalls.map(toOpenAiToolCall) }
            : {}),
          // Not in OpenAI's types: compatible servers that reason (DeepSeek) require it back in a tool loop.
          ...(reasoning === '' ? {} : { reasoning_content: reasoning }),
        } as ChatCompletionMessageParam,
      ];
    }
    case 'tool':
      // Error results already say so in their content (`{"ok":false,…}`); chat completions has no error flag.
      return message.results.map((result) => ({
        role: 'tool',
        tool_call_id: result.toolCallId,
        content: result.content,
      }));
  }
}

/** The `reasoning_content` an OpenAI-compatible server sent with this turn, as it sent it. */
function reasoningOf(message: Extract<Message, { role: 'assistant' }>): string {
  return (message.thinking ?? [])
    .filter((part) => part.source === 'openai' && part.type === 'thinking')
    .map((part) => (part.type === 'thinking' ? part.text : ''))
    .join('');
}

/** Documents become clearly delimited text after the user's own; chat completions takes no PDF. */
function withDocuments(ref: ModelRef, text: string, documents: DocumentInput[]): string {
  const parts = [text];
  for (const document of documents) {
    if (document.format === 'pdf') {
      throw new ProviderError(
        'bad_request',
        ref,
        `cannot send the PDF document "${document.name}": chat completions takes text only`,
        {
          hint: 'convert the PDF to text first, or use an anthropic:: or bedrock:: model',
        },
      );
    }
    const name = document.name.replaceAll('"', '&quot;');
    parts.push(
      `<document name="${name}" format="${document.format}">\n${document.data}\n</document>`,
    );
  }
  return parts.join('\n\n');
}

function toOpenAiToolCall(call: ToolCall) {
  // Arguments the model sent as invalid JSON come back as the raw string (see read-openai-stream): echo them as sent.
  const argumentsJson =
    typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
  return {
    id: call.id,
    type: 'function' as const,
    function: { name: call.name, arguments: argumentsJson },
  };
}

function toOpenAiTool(tool: ToolDefinition): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}
