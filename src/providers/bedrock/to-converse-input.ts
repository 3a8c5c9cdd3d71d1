import type {
  ConverseStreamCommandInput,
  SystemContentBlock,
  Tool,
} from '@aws-sdk/client-bedrock-runtime';
import { modelFactsFor } from '../model-facts/model-facts-for.js';
import { planOutputTokens } from '../model-facts/plan-output-tokens.js';
import { fitToolCallIds } from '../tool-call-ids/fit-tool-call-ids.js';
import { TOOL_CALL_ID_RULES } from '../tool-call-ids/tool-call-id-rules.js';
import type { ModelRef, ModelRequest, ToolDefinition } from '../types.js';
import { CACHE_POINT, type JsonDocument, toConverseMessages } from './to-converse-messages.js';

/** The Converse body shared by `Converse` and `ConverseStream` (neither sets a guardrail). */
export type ConverseInput = Omit<ConverseStreamCommandInput, 'guardrailConfig'>;

/**
 * A request in Converse terms, shaped by the model's facts: cache points only for models with prompt
 * caching (and after the tools only for Claude), `toolResult.status` only where accepted, `maxTokens` and
 * Claude's `thinking` field from planOutputTokens. Claude refuses a temperature alongside thinking, so the
 * temperature is dropped for any model that may think.
 */
export function toConverseInput(ref: ModelRef, request: ModelRequest): ConverseInput {
  const facts = modelFactsFor(ref);
  const cache = facts.promptCache ? (request.cache ?? {}) : {};
  const plan = planOutputTokens(facts, request, 'bedrock');
  const mayThink =
    facts.thinking !== 'none' && (plan.thinking !== undefined || facts.thinking !== 'budgeted');

  const input: ConverseInput = {
    modelId: ref.model,
    messages: toConverseMessages(fitToolCallIds(request.messages, TOOL_CALL_ID_RULES.bedrock), {
      cacheLastMessage: cache.lastMessage === true,
      sendToolResultStatus: facts.toolResultStatus,
    }),
    inferenceConfig: {
      maxTokens: plan.maxTokens,
      ...(request.temperature === undefined || mayThink
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
    if (cache.tools && facts.toolCache) tools.push(CACHE_POINT);
    input.toolConfig = { tools };
  }
  if (plan.thinking !== undefined) {
    input.additionalModelRequestFields = {
      thinking:
        plan.thinking.type === 'enabled'
          ? { type: 'enabled', budget_tokens: plan.thinking.budgetTokens }
          : { type: 'adaptive' },
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
