import type {
  ConverseStreamCommandInput,
  SystemContentBlock,
  Tool,
} from '@aws-sdk/client-bedrock-runtime';
import type { ModelRef, ModelRequest, ToolDefinition } from '../types.js';
import { bedrockModelFeatures } from './bedrock-model-features.js';
import { CACHE_POINT, type JsonDocument, toConverseMessages } from './to-converse-messages.js';

/** The Converse body shared by `Converse` and `ConverseStream` (neither sets a guardrail). */
export type ConverseInput = Omit<ConverseStreamCommandInput, 'guardrailConfig'>;

/**
 * A request in Converse terms. Cache hints become cache points only for models that take them, and a
 * reasoning budget becomes Claude's `thinking` field (other families ignore it). Claude refuses a
 * temperature alongside thinking, so the temperature is dropped then.
 */
export function toConverseInput(ref: ModelRef, request: ModelRequest): ConverseInput {
  const features = bedrockModelFeatures(ref.model);
  const cache = features.promptCache ? (request.cache ?? {}) : {};
  const thinkingBudget = features.thinking ? request.reasoningBudgetTokens : undefined;

  const input: ConverseInput = {
    modelId: ref.model,
    messages: toConverseMessages(request.messages, {
      cacheLastMessage: cache.lastMessage === true,
    }),
    inferenceConfig: {
      maxTokens: request.maxTokens,
      ...(request.temperature === undefined || thinkingBudget !== undefined
        ? {}
        : { temperature: request.temperature }),
    },
  };
  if (request.system !== '') {
    const system: SystemContentBlock[] = [{ text: request.system }];
    if (cache.system) system.push(CACHE_POINT);
    input.system = system;
  }
  if (request.tools && request.tools.length > 0) {
    const tools: Tool[] = request.tools.map(toToolSpec);
    if (cache.tools && features.toolCache) tools.push(CACHE_POINT);
    input.toolConfig = { tools };
  }
  if (thinkingBudget !== undefined) {
    input.additionalModelRequestFields = {
      thinking: { type: 'enabled', budget_tokens: thinkingBudget },
    };
  }
  return input;
}

function toToolSpec(tool: ToolDefinition): Tool {
  return {
    toolSpec: {
      name: tool.name,
      description: tool.description,
      inputSchema: { json: tool.inputSchema as JsonDocument },
    },
  };
}
