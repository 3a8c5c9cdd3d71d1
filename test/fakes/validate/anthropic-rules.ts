import type { ThinkingLedger, Violation } from '../thinking-ledger.js';
import { serviceModelFor } from './service-models.js';
import {
  checkThinkingBudget,
  isRecord,
  readThinkingField,
  type ThinkingRequest,
} from './thinking-rules.js';

/** The Messages API's ceiling on `cache_control` breakpoints per request. */
const MAX_CACHE_BREAKPOINTS = 4;
/** A custom tool's name, as the API's schema states it. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
/** `tool_use.id` and `tool_result.tool_use_id`, as the API's schema states them. */
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
/** Fields of the Messages API request in this API version (no sampling parameters). */
const KNOWN_FIELDS = new Set([
  'max_tokens',
  'messages',
  'model',
  'cache_control',
  'container',
  'diagnostics',
  'inference_geo',
  'metadata',
  'output_config',
  'service_tier',
  'speed',
  'stop_sequences',
  'stream',
  'system',
  'thinking',
  'tool_choice',
  'tools',
]);

const invalid = (message: string): Violation => ({
  status: 400,
  type: 'invalid_request_error',
  message,
});

interface Turn {
  role: string;
  /** Index of the first wire message merged into this turn, for error paths. */
  index: number;
  blocks: Record<string, unknown>[];
}

/**
 * The documented request rules of `POST /v1/messages` (the API reference, the extended and adaptive thinking
 * pages, tool use and prompt caching), checked in the order the API reports them. Consecutive turns of one
 * role are merged first, as the API does.
 */
export function checkAnthropicRequest(
  body: unknown,
  ledger: ThinkingLedger,
): Violation | undefined {
  if (!isRecord(body)) return invalid('The request body is not valid JSON.');
  for (const key of Object.keys(body))
    if (!KNOWN_FIELDS.has(key)) return invalid(`${key}: Extra inputs are not permitted`);
  if (typeof body.model !== 'string') return invalid('model: Field required');
  // Zero is allowed: it warms the prompt cache without generating.
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 0)
    return invalid('max_tokens: Input should be greater than or equal to 0');
  const maxTokens = body.max_tokens as number;
  const model = serviceModelFor(body.model);
  if (maxTokens > model.maxOutputTokens)
    return invalid(
      `max_tokens: ${maxTokens} > ${model.maxOutputTokens}, which is the maximum allowed number of output tokens for ${body.model}`,
    );
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return invalid('messages: at least one message is required');

  const system = body.system;
  if (Array.isArray(system)) {
    for (const block of system) {
      const problem = checkText(block, 'system');
      if (problem) return problem;
    }
  }
  const turns: Turn[] = [];
  for (const [index, message] of (body.messages as unknown[]).entries()) {
    if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant'))
      return invalid(`messages.${index}.role: Input should be 'user' or 'assistant'`);
    const blocks = toBlocks(message.content);
    if (blocks === undefined) return invalid(`messages.${index}.content: Field required`);
    const isFinalAssistant = index === body.messages.length - 1 && message.role === 'assistant';
    if (blocks.length === 0 && !isFinalAssistant)
      return invalid(
        `messages.${index}: all messages must have non-empty content except for the optional final assistant message`,
      );
    for (const block of blocks) {
      const problem = checkText(block, 'messages');
      if (problem) return problem;
    }
    if (message.role === 'assistant') {
      const problem = checkThinkingPlace(blocks, index);
      if (problem) return problem;
    }
    const previous = turns.at(-1);
    if (previous?.role === message.role) previous.blocks.push(...blocks);
    else turns.push({ role: message.role, index, blocks });
  }
  if (turns[0]?.role !== 'user') return invalid('messages: first message must use the "user" role');
  if (turns.at(-1)?.role === 'assistant' && !model.takesPrefill)
    return invalid(
      'This model does not support assistant message prefill. The conversation must end with a user message.',
    );

  const thinking = readThinkingField(body.thinking, model);
  if (typeof thinking === 'string') return invalid(thinking);
  const budgetProblem = checkThinkingBudget(thinking, maxTokens, model);
  if (budgetProblem) return invalid(budgetProblem);
  if (thinking.isOn && isForcedToolChoice(body.tool_choice))
    return invalid('Thinking may not be enabled when tool_choice forces tool use.');

  return (
    checkTools(body.tools) ??
    checkToolPairing(turns) ??
    checkThinkingBlocks(turns, ledger, thinking) ??
    checkCacheBreakpoints(body, turns)
  );
}

function isForcedToolChoice(choice: unknown): boolean {
  return isRecord(choice) && (choice.type === 'any' || choice.type === 'tool');
}

/** Tool names follow the API's pattern and are unique; a custom tool's input is a JSON object. */
function checkTools(tools: unknown): Violation | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return invalid('tools: Input should be a valid list');
  const names = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool)) return invalid(`tools.${index}: Input should be an object`);
    const name = String(tool.name);
    if (!TOOL_NAME.test(name))
      return invalid(
        `tools.${index}.custom.name: String should match pattern '${TOOL_NAME.source}'`,
      );
    if (names.has(name)) return invalid('tools: Tool names must be unique.');
    names.add(name);
  }
  return undefined;
}

function toBlocks(content: unknown): Record<string, unknown>[] | undefined {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return undefined;
  return content.filter(isRecord);
}

function checkText(block: unknown, where: string): Violation | undefined {
  if (!isRecord(block) || block.type !== 'text') return undefined;
  if (typeof block.text !== 'string' || block.text === '')
    return invalid(`${where}: text content blocks must be non-empty`);
  if (block.text.trim() === '')
    return invalid(`${where}: text content blocks must contain non-whitespace text`);
  return undefined;
}

/** Each tool_use is answered in the next turn, whose content starts with the tool_result blocks. */
function checkToolPairing(turns: Turn[]): Violation | undefined {
  for (const turn of turns) {
    for (const [offset, block] of turn.blocks.entries()) {
      const [field, id] =
        block.type === 'tool_use'
          ? ['tool_use.id', block.id]
          : block.type === 'tool_result'
            ? ['tool_result.tool_use_id', block.tool_use_id]
            : [];
      if (field !== undefined && !TOOL_USE_ID.test(String(id)))
        return invalid(
          `messages.${turn.index}.content.${offset}.${field}: String should match pattern '^[a-zA-Z0-9_-]+$'`,
        );
    }
  }
  for (const [position, turn] of turns.entries()) {
    const previous = turns[position - 1];
    const expected =
      previous?.role === 'assistant'
        ? previous.blocks
            .filter((block) => block.type === 'tool_use')
            .map((block) => String(block.id))
        : [];
    if (turn.role === 'assistant') {
      const ids = turn.blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
      if (new Set(ids).size !== ids.length)
        return invalid(`messages.${turn.index}: tool_use ids must be unique`);
      continue;
    }
    const results = turn.blocks.filter((block) => block.type === 'tool_result');
    for (const result of results) {
      if (!expected.includes(String(result.tool_use_id)))
        return invalid(
          `messages.${turn.index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(result.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
    }
    const answered = new Set(results.map((result) => String(result.tool_use_id)));
    const missing = expected.filter((id) => !answered.has(id));
    if (missing.length > 0)
      return invalid(
        `messages.${turn.index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    const firstOther = turn.blocks.findIndex((block) => block.type !== 'tool_result');
    if (firstOther !== -1 && firstOther < results.length)
      return invalid(
        `messages.${turn.index}.content.${firstOther}: tool_result blocks must come first in the user message content, before any other block`,
      );
  }
  return undefined;
}

const isThinkingBlock = (block: Record<string, unknown>) =>
  block.type === 'thinking' || block.type === 'redacted_thinking';

/** In an assistant message, thinking comes first and never last. */
function checkThinkingPlace(
  blocks: Record<string, unknown>[],
  index: number,
): Violation | undefined {
  if (!blocks.some(isThinkingBlock)) return undefined;
  if (!isThinkingBlock(blocks[0]!))
    return invalid(
      `messages.${index}.content.0: If an assistant message contains any thinking blocks, the first block must be \`thinking\` or \`redacted_thinking\`. Found \`${String(blocks[0]!.type)}\`.`,
    );
  const last = blocks.at(-1)!;
  if (isThinkingBlock(last))
    return invalid(
      `messages.${index}: The final block in an assistant message cannot be \`${String(last.type)}\`.`,
    );
  return undefined;
}

/**
 * Thinking goes back exactly as issued. In a tool loop with thinking on, the last assistant turn starts with
 * the thinking that preceded its tool calls; with budgeted thinking (`enabled`) Claude always thinks first, so
 * that turn must start with thinking whatever the fake issued.
 */
function checkThinkingBlocks(
  turns: Turn[],
  ledger: ThinkingLedger,
  thinking: ThinkingRequest,
): Violation | undefined {
  for (const turn of turns) {
    for (const [offset, block] of turn.blocks.entries()) {
      const path = `messages.${turn.index}.content.${offset}`;
      if (block.type === 'thinking' && !ledger.isSigned(String(block.thinking), block.signature))
        return invalid(`${path}: Invalid \`signature\` in \`thinking\` block`);
      if (block.type === 'redacted_thinking' && !ledger.isIssuedRedacted(block.data))
        return invalid(`${path}: Invalid \`data\` in \`redacted_thinking\` block`);
      if ((block.type === 'thinking' || block.type === 'redacted_thinking') && block.cache_control)
        return invalid(`${path}.cache_control: cache_control cannot be set on thinking blocks`);
    }
  }
  if (!thinking.isOn) return undefined;
  const lastAssistant = turns.findLast((turn) => turn.role === 'assistant');
  const isToolLoop = turns.at(-1)?.role === 'user' && turns.at(-2) === lastAssistant;
  const toolUse = lastAssistant?.blocks.find((block) => block.type === 'tool_use');
  if (!lastAssistant || !isToolLoop || !toolUse) return undefined;
  const issued = ledger.thinkingBefore(String(toolUse.id));
  const thoughtBefore = thinking.type === 'enabled' ? Math.max(1, issued) : issued;
  const leading = lastAssistant.blocks.findIndex((block) => !isThinkingBlock(block));
  if (thoughtBefore > 0 && leading < thoughtBefore) {
    const found = String(lastAssistant.blocks[0]?.type ?? 'nothing');
    return invalid(
      `messages.${lastAssistant.index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`,
    );
  }
  return undefined;
}

function checkCacheBreakpoints(
  body: Record<string, unknown>,
  turns: Turn[],
): Violation | undefined {
  const marked = (blocks: unknown) =>
    Array.isArray(blocks)
      ? blocks.filter((block) => isRecord(block) && block.cache_control).length
      : 0;
  const count =
    (body.cache_control ? 1 : 0) +
    marked(body.system) +
    marked(body.tools) +
    turns.reduce((sum, turn) => sum + marked(turn.blocks), 0);
  if (count > MAX_CACHE_BREAKPOINTS)
    return invalid(
      `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${count}.`,
    );
  return undefined;
}
