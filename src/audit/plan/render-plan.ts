import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { AuditPlan } from './audit-plan.js';

/** The plain-text plan printed by `oy audit --dry-run`; file names are the repository's, so they are shown inertly. */
export function renderPlan(plan: AuditPlan): string {
  const plain = (text: string) => neutralizeControl(text, { lineBreaks: 'show' });
  const lines: string[] = [];
  lines.push(`Audit plan for ${plain(plan.root)}`);
  lines.push('');
  lines.push('Files');
  lines.push(`  reviewed  ${plan.files.reviewed}`);
  for (const [status, byReason] of [
    ['skipped', plan.files.skipped],
    ['failed', plan.files.failed],
  ] as const) {
    for (const [reason, count] of Object.entries(byReason).sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`  ${status}(${plain(reason)})  ${count}`);
    }
  }
  lines.push('');
  lines.push(
    `Chunks: ${plan.chunks.length} (budget ${plan.chunkTokens} provider tokens = ${plan.budgetTokens} ${plan.encoding} tokens at headroom ${plan.headroom})`,
  );
  plan.chunks.forEach((chunk, index) => {
    const span =
      chunk.firstPath === chunk.lastPath
        ? plain(chunk.firstPath)
        : `${plain(chunk.firstPath)} .. ${plain(chunk.lastPath)}`;
    lines.push(
      `  ${String(index + 1).padStart(3)}  ${chunk.id.slice(0, 12)}  ${String(chunk.tokens).padStart(7)} tokens  ${String(chunk.files).padStart(5)} files  risk ${chunk.riskScore}  ${span}`,
    );
  });
  lines.push('');
  lines.push(`Model calls: ${plan.mapCalls} map, ${plan.reduceCalls} reduce`);
  lines.push(`Content sent to the model: about ${plan.contentProviderTokens} provider tokens`);
  if (plan.estimate) {
    const cost =
      plan.estimate.costUsd === null
        ? 'cost unknown (no price for this model)'
        : `about $${plan.estimate.costUsd.toFixed(2)}`;
    lines.push(
      `Estimate: ${plan.estimate.inputTokens} input and ${plan.estimate.outputTokens} output tokens, ${cost}`,
    );
  }
  if (plan.exceedsMaxChunks) {
    lines.push(
      `warning: ${plan.chunks.length} chunks exceed --max-chunks ${plan.maxChunks}; a model review would refuse to start (narrow it with --include, --exclude, .oyignore or --diff)`,
    );
  }
  lines.push(`Plan hash: ${plan.planHash}`);
  return lines.join('\n') + '\n';
}
