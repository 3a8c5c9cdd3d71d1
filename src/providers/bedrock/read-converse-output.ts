import type { ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError } from '../provider-error.js';
import type { ModelRef, ModelResult, ThinkingPart, ToolCall } from '../types.js';
import { toStopReason } from './to-stop-reason.js';
import { toUsage } from './to-usage.js';
import { boundToolArguments } from '../bound-tool-arguments.js';

/** A whole Converse answer as our result; reasoning blocks are kept, signed, to go back unchanged. */
export function readConverseOutput(output: ConverseCommandOutput, ref: ModelRef): ModelResult {
  const message = output.output?.message;
  if (!message) {
    throw new ProviderError('server', ref, 'the Bedrock answer carried no message', {
      hint: 'retry; the service sent an answer it should not have',
    });
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const thinking: ThinkingPart[] = [];
  for (const block of message.content ?? []) {
    const reasoning = block.reasoningContent;
    if (reasoning?.redactedContent) {
      const data = Buffer.from(reasoning.redactedContent).toString('base64');
      thinking.push({ type: 'redacted_thinking', source: 'bedrock', data });
    } else if (reasoning?.reasoningText) {
      const { text = '', signature } = reasoning.reasoningText;
      thinking.push({
        type: 'thinking',
        source: 'bedrock',
        text,
        ...(signature ? { signature } : {}),
      });
    }
    if (block.text !== undefined) texts.push(block.text);
    if (block.toolUse) {
      toolCalls.push({
        id: block.toolUse.toolUseId ?? '',
        name: block.toolUse.name ?? '',
        arguments: boundToolArguments(block.toolUse.input ?? {}),
      });
    }
  }
  return {
    text: texts.join(''),
    toolCalls,
    usage: toUsage(output.usage),
    stopReason: toStopReason(output.stopReason),
    ...(thinking.length > 0 ? { thinking } : {}),
  };
}
