import {
  modelFactsFor,
  needsInferenceProfile,
} from '../../../src/providers/model-facts/model-facts-for.js';
import type { ModelRef } from '../../../src/providers/types.js';
import type { ThinkingLedger, Violation } from '../thinking-ledger.js';
import { checkThinkingBudget, isRecord, type ThinkingRequest } from './thinking-rules.js';

/** Converse's limit on documents per request. */
const MAX_DOCUMENTS = 5;
/** Converse's document-name rule: letters, digits, single spaces, hyphens, parentheses, square brackets. */
const DOCUMENT_NAME = /^[A-Za-z0-9\-()[\]]+(?: [A-Za-z0-9\-()[\]]+)*$/;

const validation = (message: string): Violation => ({
  status: 400,
  type: 'ValidationException',
  message,
});

/**
 * The documented rules of Converse and ConverseStream (API reference, "supported models and model features",
 * prompt caching, Claude's thinking through `additionalModelRequestFields`), answered as Bedrock does:
 * 400 `ValidationException` with its message.
 */
export function checkBedrockRequest(
  modelId: string,
  isStream: boolean,
  body: unknown,
  ledger: ThinkingLedger,
): Violation | undefined {
  const ref: ModelRef = { provider: 'bedrock', model: modelId, id: `bedrock::${modelId}` };
  const facts = modelFactsFor(ref);
  if (needsInferenceProfile(ref))
    return validation(
      `Invocation of model ID ${modelId} with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.`,
    );
  if (!isRecord(body)) return validation('The request body is not valid JSON.');
  const config = isRecord(body.inferenceConfig) ? body.inferenceConfig : {};
  const maxTokens = typeof config.maxTokens === 'number' ? config.maxTokens : facts.maxOutputTokens;
  if (maxTokens > facts.maxOutputTokens)
    return validation(
      `The maximum tokens you requested exceeds the model limit of ${facts.maxOutputTokens}. Try again with a maximum tokens value that is lower than ${facts.maxOutputTokens}.`,
    );
  const tools =
    isRecord(body.toolConfig) && Array.isArray(body.toolConfig.tools) ? body.toolConfig.tools : [];
  if (isStream && tools.length > 0 && !facts.streamingToolUse)
    return validation('This model doesn’t support tool use in streaming mode.');
  const hasCachePoint = (blocks: unknown) =>
    Array.isArray(blocks) &&
    blocks.some((block) => isRecord(block) && block.cachePoint !== undefined);
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  if (
    (!facts.promptCache &&
      (hasCachePoint(body.system) ||
        messages.some((m) => isRecord(m) && hasCachePoint(m.content)))) ||
    (!facts.toolCache && hasCachePoint(tools))
  )
    return validation(
      'You invoked an unsupported model or your request did not allow prompt caching. See the documentation for more information.',
    );
  const thinkingProblem = checkThinking(body, maxTokens, facts.thinking);
  if (thinkingProblem) return validation(thinkingProblem);
  return checkMessages(messages, facts.toolResultStatus, ledger);
}

function checkThinking(
  body: Record<string, unknown>,
  maxTokens: number,
  kind: ReturnType<typeof modelFactsFor>['thinking'],
): string | undefined {
  const fields = body.additionalModelRequestFields;
  const thinking = isRecord(fields) && isRecord(fields.thinking) ? fields.thinking : undefined;
  if (!thinking) return undefined;
  const type = thinking.type as ThinkingRequest['type'];
  return checkThinkingBudget(
    {
      type,
      isOn: type !== 'disabled',
      ...(typeof thinking.budget_tokens === 'number'
        ? { budgetTokens: thinking.budget_tokens }
        : {}),
      hasBudgetField: 'budget_tokens' in thinking,
    },
    maxTokens,
    kind,
  );
}

function checkMessages(
  messages: unknown[],
  acceptsStatus: boolean,
  ledger: ThinkingLedger,
): Violation | undefined {
  if (messages.length === 0)
    return validation(
      'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
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
      if (isRecord(block.toolResult) && block.toolResult.status !== undefined && !acceptsStatus)
        return validation(
          'This model doesn’t support the toolResult.status field. Remove toolResult.status and try again.',
        );
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
      const leadingReasoning = content.findIndex((block) => block.reasoningContent === undefined);
      const thought = toolUses.length > 0 ? ledger.thinkingBefore(toolUses[0]!) : 0;
      const isLastToolTurn = index === messages.length - 2;
      if (isLastToolTurn && thought > 0 && leadingReasoning < thought)
        return validation(
          `Expected reasoningContent at messages.${index}.content.0: when thinking is enabled, the assistant turn before the tool results must start with the reasoning the model returned, unchanged.`,
        );
    }
    previousToolUses = message.role === 'assistant' ? toolUses : [];
  }
  return undefined;
}
