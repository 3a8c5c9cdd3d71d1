import type { AgentEvent } from '../../agent/index.js';

type DoneEvent = Extract<AgentEvent, { type: 'done' }>;

/** `tokens: 1200 in (800 cache read, 0 cache write), 340 out; cost $0.0042; 3 model calls; session <id>` */
export function formatUsageLine(done: DoneEvent): string {
  const { usage } = done;
  const cost =
    done.costUsd === null
      ? 'cost unknown (no price for this model)'
      : `cost $${done.costUsd.toFixed(4)}`;
  const parts = [
    `tokens: ${usage.inputTokens} in (${usage.cacheReadTokens} cache read, ${usage.cacheWriteTokens} cache write), ${usage.outputTokens} out`,
    cost,
    `${done.modelCalls} model call${done.modelCalls === 1 ? '' : 's'}`,
  ];
  if (done.sessionId) parts.push(`session ${done.sessionId}`);
  return parts.join('; ');
}
