import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';

export interface StatusLineInput {
  modelId: string;
  mode: SafetyMode;
  /** The estimate of the next request's prompt. */
  contextTokens: number;
  /** The session's cost so far; null when a price was unknown. */
  costUsd: number | null;
}

/** After each turn: `anthropic::claude-haiku-4-5 · mode ask · context 5120 tokens · $0.0042`. */
export function formatStatusLine(input: StatusLineInput): string {
  const cost = input.costUsd === null ? '?' : input.costUsd.toFixed(4);
  return `${neutralizeControl(input.modelId, { lineBreaks: 'show' })} · mode ${input.mode} · context ${input.contextTokens} tokens · $${cost}`;
}
