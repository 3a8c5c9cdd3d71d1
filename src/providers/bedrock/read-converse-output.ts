import type { ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError } from '../provider-error.js';
import type { ModelRef, ModelResult, ToolCall } from '../types.js';
import { toStopReason } from './to-stop-reason.js';
import { toUsage } from './to-usage.js';
import { boundToolArguments } from '../bound-tool-arguments.js';

/** A whole Converse answer as our result; reasoning blocks are dropped. */
export function readConverseOutput(output: ConverseCommandOutput, ref: ModelRef): ModelResult {
  const message = output.output?.message;
  if (!message) {
    throw new ProviderError('server', ref, 'the Bedrock answer carried no message', {
      hint: 'retry; the service sent an answer it should not have',
    });
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of message.content ?? []) {
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
  };
}
