import type { ThinkingLedger, Violation } from '../thinking-ledger.js';
import { isProfileId, serviceModelFor, type ServiceModel } from './service-models.js';
import {
  checkThinkingBudget,
  isRecord,
  readThinkingField,
  type ThinkingRequest,
} from './thinking-rules.js';

/** Converse's limit on documents per request. */
const MAX_DOCUMENTS = 5;
/** Converse's document-name rule: letters, digits, single spaces, hyphens, parentheses, square brackets; 1 to 200. */
const DOCUMENT_NAME = /^[A-Za-z0-9\-()[\]]+(?: [A-Za-z0-9\-()[\]]+)*$/;
const MAX_DOCUMENT_NAME_CHARS = 200;
/** Cache checkpoints per request (Bedrock's prompt-caching limits for Claude). */
const MAX_CACHE_POINTS = 4;
/** ToolSpecification.name, and ToolUseBlock/ToolResultBlock.toolUseId, as the API reference states them. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const MAX_TOOL_USE_ID_CHARS = 64;

const validation = (message: string): Violation => ({
  status: 400,
  type: 'ValidationException',
  message,
});

/**
 * The documented rules of Converse and ConverseStream (API reference, "supported models and model features",
 * prompt caching, Claude's thinking through `additionalModelRequestFields`), answered as Bedrock does:
 * 400 `ValidationException` with its message. Claude's own rules reach the caller through Bedrock as
 * "The model returned the following errors: …".
 */
export function checkBedrockRequest(
  modelId: string,
  isStream: boolean,
  body: unknown,
  ledger: ThinkingLedger,
): Violation | undefined {
  const model = serviceModelFor(modelId);
  if (model.bedrockProfileOnly && !isProfileId(modelId))
    return validation(
      `Invocation of model ID ${modelId} with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.`,
    );
  if (!isRecord(body)) return validation('The request body is not valid JSON.');
  const config = isRecord(body.inferenceConfig) ? body.inferenceConfig : {};
  const maxTokens = typeof config.maxTokens === 'number' ? config.maxTokens : model.maxOutputTokens;
  if (maxTokens > model.maxOutputTokens)
    return validation(
      `The maximum tokens you requested exceeds the model limit of ${model.maxOutputTokens}. Try again with a maximum tokens value that is lower than ${model.maxOutputTokens}.`,
    );
  const tools =
    isRecord(body.toolConfig) && Array.isArray(body.toolConfig.tools) ? body.toolConfig.tools : [];
  if (isStream && tools.length > 0 && !model.bedrockStreamingTools)
    return validation('This model doesn’t support tool use in streaming mode.');
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  const fields = body.additionalModelRequestFields;
  const thinking = readThinkingField(isRecord(fields) ? fields.thinking : undefined, model);
  if (typeof thinking === 'string') return validation(thinking);
  return (
    checkToolSpecs(tools) ??
    checkCachePoints(body.system, tools, messages, model) ??
    checkThinking(thinking, config, maxTokens, model) ??
    checkMessages(messages, model, ledger, thinking)
  );
}

function checkToolSpecs(tools: unknown[]): Violation | undefined {
  for (const [index, tool] of tools.entries()) {
    const spec = isRecord(tool) && isRecord(tool.toolSpec) ? tool.toolSpec : undefined;
    if (spec && !TOOL_NAME.test(String(spec.name)))
      return validation(
        `1 validation error detected: Value at 'toolConfig.tools.${index + 1}.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`,
      );
  }
  return undefined;
}

const countCachePoints = (blocks: unknown) =>
  Array.isArray(blocks)
    ? blocks.filter((block) => isRecord(block) && block.cachePoint !== undefined).length
    : 0;

function checkCachePoints(
  system: unknown,
  tools: unknown[],
  messages: unknown[],
  model: ServiceModel,
): Violation | undefined {
  const inPrompt =
    countCachePoints(system) +
    messages.reduce<number>((sum, m) => sum + (isRecord(m) ? countCachePoints(m.content) : 0), 0);
  const afterTools = countCachePoints(tools);
  if ((inPrompt > 0 && !model.bedrockCache) || (afterTools > 0 && !model.bedrockToolCache))
    return validation(
      'You invoked an unsupported model or your request did not allow prompt caching. See the documentation for more information.',
    );
  if (inPrompt + afterTools > MAX_CACHE_POINTS)
    return validation(
      `The number of cache points exceeds the limit of ${MAX_CACHE_POINTS}. Remove cache points and try again.`,
    );
  return undefined;
}

/** Claude's thinking field and its sampling rules: with thinking on, temperature only 1, top_p 0.95 to 1. */
function checkThinking(
  thinking: ThinkingRequest,
  config: Record<string, unknown>,
  maxTokens: number,
  model: ServiceModel,
): Violation | undefined {
  const problem = checkThinkingBudget(thinking, maxTokens, model);
  if (problem) return validation(`The model returned the following errors: ${problem}`);
  if (!thinking.isOn) return undefined;
  if (config.temperature !== undefined && config.temperature !== 1)
    return validation(
      'The model returned the following errors: `temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility',
    );
  if (typeof config.topP === 'number' && config.topP < 0.95)
    return validation(
      'The model returned the following errors: `top_p` must be greater than or equal to 0.95 or unset when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility',
    );
  return undefined;
}

function checkMessages(
  messages: unknown[],
  model: ServiceModel,
  ledger: ThinkingLedger,
  thinking: ThinkingRequest,
): Violation | undefined {
  if (messages.length === 0)
    return validation(
      'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
    );
  const last = messages.at(-1);
  if (isRecord(last) && last.role === 'assistant' && !model.takesPrefill)
    return validation(
      'The model returned the following errors: This model does not support assistant message prefill. The conversation must end with a user message.',
    );
  let previousToolUses: string[] = [];
  let documents = 0;
  const documentNames = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return validation(`messages.${index} is not an object`);
    const expectedRole = index % 2 === 0 ? 'user' : 'assistant';
    if (index === 0 && message.role !== 'user')
      return validation(
        'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
      );
    if (message.role !== expectedRole)
      return validation(
        'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.',
      );
    const content = Array.isArray(message.content) ? message.content.filter(isRecord) : [];
    if (content.filter((block) => block.cachePoint === undefined).length === 0)
      return validation(
        `The content field in the Message object at messages.${index} is empty. Add a ContentBlock object to the content field and try again.`,
      );
    for (const [offset, block] of content.entries()) {
      const path = `messages.${index}.content.${offset}`;
      if (typeof block.text === 'string' && block.text.trim() === '')
        return validation(
          `The text field in the ContentBlock object at ${path} is blank. Add text to the text field, and try again.`,
        );
      if (
        isRecord(block.toolResult) &&
        block.toolResult.status !== undefined &&
        !model.bedrockToolResultStatus
      )
        return validation(
          'This model doesn’t support the toolResult.status field. Remove toolResult.status and try again.',
        );
      for (const kind of ['toolUse', 'toolResult'] as const) {
        const tool = block[kind];
        if (!isRecord(tool)) continue;
        const id = String(tool.toolUseId);
        if (!TOOL_USE_ID.test(id))
          return validation(
            `1 validation error detected: Value at '${path}.member.${kind}.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`,
          );
        if (id.length > MAX_TOOL_USE_ID_CHARS)
          return validation(
            `1 validation error detected: Value at '${path}.member.${kind}.toolUseId' failed to satisfy constraint: Member must have length less than or equal to ${MAX_TOOL_USE_ID_CHARS}`,
          );
      }
      if (isRecord(block.toolUse)) {
        if (!isRecord(block.toolUse.input))
          return validation(
            `The model returned the following errors: ${path}.tool_use.input: Input should be a valid dictionary`,
          );
      }
      const reasoning = isRecord(block.reasoningContent) ? block.reasoningContent : undefined;
      if (reasoning) {
        const text = isRecord(reasoning.reasoningText) ? reasoning.reasoningText : undefined;
        if (text && !ledger.isSigned(String(text.text), text.signature))
          return validation(
            `The reasoning signature at ${path} is invalid. Send reasoning content back exactly as the model returned it.`,
          );
        if (
          reasoning.redactedContent !== undefined &&
          !ledger.isIssuedRedacted(
            Buffer.from(String(reasoning.redactedContent), 'base64').toString('utf8'),
          )
        )
          return validation(`The redacted reasoning content at ${path} is invalid.`);
      }
      if (isRecord(block.document)) {
        documents += 1;
        const name = String(block.document.name ?? '');
        if (!DOCUMENT_NAME.test(name))
          return validation(
            'The document file name can only contain alphanumeric characters, whitespace characters, hyphens, parentheses, and square brackets. The name can’t contain more than one consecutive whitespace character.',
          );
        if (name.length > MAX_DOCUMENT_NAME_CHARS)
          return validation(
            `1 validation error detected: Value at '${path}.member.document.name' failed to satisfy constraint: Member must have length less than or equal to ${MAX_DOCUMENT_NAME_CHARS}`,
          );
        if (documentNames.has(name))
          return validation(`Duplicate document names are not allowed: ${name}`);
        documentNames.add(name);
      }
    }
    if (documents > MAX_DOCUMENTS)
      return validation(`A request can contain at most ${MAX_DOCUMENTS} documents.`);
    const toolUses = content
      .filter((b) => isRecord(b.toolUse))
      .map((b) => String((b.toolUse as Record<string, unknown>).toolUseId));
    const toolResults = content
      .filter((b) => isRecord(b.toolResult))
      .map((b) => String((b.toolResult as Record<string, unknown>).toolUseId));
    if (message.role === 'user') {
      const stray = toolResults.find((id) => !previousToolUses.includes(id));
      if (stray !== undefined)
        return validation(
          `The model returned the following errors: messages.${index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      if (toolResults.length > previousToolUses.length)
        return validation(
          `The number of toolResult blocks at messages.${index}.content exceeds the number of toolUse blocks of previous turn.`,
        );
      const missing = previousToolUses.filter((id) => !toolResults.includes(id));
      if (missing.length > 0)
        return validation(
          `Expected toolResult blocks at messages.${index}.content for the following Ids: ${missing.join(', ')}`,
        );
    } else {
      const problem = checkReasoningPlace(content, index);
      if (problem) return problem;
      const leadingReasoning = content.findIndex((block) => block.reasoningContent === undefined);
      const issued = toolUses.length > 0 ? ledger.thinkingBefore(toolUses[0]!) : 0;
      // Budgeted thinking always thinks first, so its tool turn must start with reasoning whatever was issued.
      const thought =
        thinking.type === 'enabled' && toolUses.length > 0 ? Math.max(1, issued) : issued;
      const isLastToolTurn = index === messages.length - 2;
      if (thinking.isOn && isLastToolTurn && thought > 0 && leadingReasoning < thought)
        return validation(
          `Expected reasoningContent at messages.${index}.content.0: when thinking is enabled, the assistant turn before the tool results must start with the reasoning the model returned, unchanged.`,
        );
    }
    previousToolUses = message.role === 'assistant' ? toolUses : [];
  }
  return undefined;
}

/** Claude's rule, relayed: reasoning comes first in an assistant turn and is never its last block. */
function checkReasoningPlace(
  content: Record<string, unknown>[],
  index: number,
): Violation | undefined {
  const blocks = content.filter((block) => block.cachePoint === undefined);
  const isReasoning = (block: Record<string, unknown> | undefined) =>
    block?.reasoningContent !== undefined;
  if (!blocks.some(isReasoning)) return undefined;
  if (!isReasoning(blocks[0]))
    return validation(
      `The model returned the following errors: messages.${index}.content.0: If an assistant message contains any thinking blocks, the first block must be \`thinking\` or \`redacted_thinking\`. Found \`text\`.`,
    );
  if (isReasoning(blocks.at(-1)))
    return validation(
      `The model returned the following errors: messages.${index}: The final block in an assistant message cannot be \`thinking\`.`,
    );
  return undefined;
}
