import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { FILE_KIND_LABELS, FILE_KINDS } from '../scope/classify-file.js';
import type { AuditPlan } from './audit-plan.js';
import { describeNarrowing } from './describe-narrowing.js';

/** Folders listed in the plan; the rest are summed in one line. */
const FOLDERS_LISTED_MAX = 15;

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
  lines.push(describeScope(plan));
  lines.push('', ...renderFolders(plan, plain));
  if (plan.largestFiles.length > 0) {
    lines.push('', 'Largest files sent to the model');
    for (const file of plan.largestFiles) {
      lines.push(`  ${formatCount(file.tokens).padStart(9)} tokens  ${plain(file.path)}`);
    }
  }
  lines.push('');
  const selected =
    plan.chunks.length < plan.chunksNeeded
      ? `${plan.chunks.length} of ${plan.chunksNeeded} (--riskiest ${plan.riskiest}: the riskiest by hint weights; ${plan.chunksNeeded - plan.chunks.length} skipped(budget))`
      : String(plan.chunks.length);
  lines.push(
    `Chunks: ${selected} (budget ${plan.chunkTokens} provider tokens = ${plan.budgetTokens} ${plan.encoding} tokens at headroom ${plan.headroom})`,
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
        : `about $${plan.estimate.costUsd.toFixed(2)}${plan.estimate.pricing === 'batch' ? ' at batch prices (map calls; the reduce call is online)' : ''}`;
    lines.push(
      `Estimate: ${plan.estimate.inputTokens} input and ${plan.estimate.outputTokens} output tokens, ${cost}${describeCached(plan)}`,
    );
  }
  if (plan.exceedsMaxChunks) {
    const { where, hint } = describeNarrowing(plan);
    lines.push(
      `warning: ${plan.chunks.length} chunks exceed --max-chunks ${plan.maxChunks}; a model review would refuse to start${where === '' ? '' : ` (${plain(where)})`}`,
      `hint: ${plain(hint)}`,
    );
  }
  lines.push(`Plan hash: ${plan.planHash}`);
  return lines.join('\n') + '\n';
}

/** ` (2 of 3 chunks cached, at $0)`: what the cache saves; empty when nothing is cached. */
function describeCached(plan: AuditPlan): string {
  const estimate = plan.estimate;
  if (!estimate || (estimate.cachedChunks === 0 && !estimate.isReduceCached)) return '';
  const reduce = estimate.isReduceCached ? ' and the reduce' : '';
  return ` (${estimate.cachedChunks} of ${plan.mapCalls} chunks${reduce} cached, at $0)`;
}

function describeScope(plan: AuditPlan): string {
  const left = FILE_KINDS.flatMap((kind) => {
    const count = plan.deterministicByKind[kind] ?? 0;
    return count > 0 ? [`${FILE_KIND_LABELS[kind]} ${count}`] : [];
  });
  const sent =
    plan.scope === 'all'
      ? 'Scope: all (the model is sent every file that is read)'
      : 'Scope: shipping (the model is sent the code that ships: source, configuration, CI, infrastructure, scripts)';
  if (left.length === 0) return sent;
  return `${sent}\n  deterministic checks only: ${left.join(', ')} (--scope all sends them too)`;
}

function renderFolders(plan: AuditPlan, plain: (text: string) => string): string[] {
  const rate = plan.estimate?.usdPerContentToken ?? null;
  const lines = [
    `Tokens by top-level folder${rate === null ? '' : ' (cost: its share of the estimate for the whole scope)'}`,
    `  ${'sent files'.padStart(10)}  ${'tokens'.padStart(9)}  ${rate === null ? '' : `${'cost'.padStart(8)}  `}${'checks-only files'.padStart(17)}  ${'~tokens'.padStart(9)}  folder`,
  ];
  const shown = plan.folders.slice(0, FOLDERS_LISTED_MAX);
  const rest = plan.folders.slice(FOLDERS_LISTED_MAX);
  const rows = [...shown];
  if (rest.length > 0) {
    rows.push({
      folder: `(${rest.length} more folders)`,
      files: sum(rest.map((folder) => folder.files)),
      tokens: sum(rest.map((folder) => folder.tokens)),
      deterministicFiles: sum(rest.map((folder) => folder.deterministicFiles)),
      deterministicTokens: sum(rest.map((folder) => folder.deterministicTokens)),
    });
  }
  for (const folder of rows) {
    const usd =
      rate === null || folder.tokens === 0
        ? '-'
        : `$${(folder.tokens * plan.headroom * rate).toFixed(2)}`;
    const cost = rate === null ? '' : `${usd.padStart(8)}  `;
    lines.push(
      `  ${String(folder.files).padStart(10)}  ${formatCount(folder.tokens).padStart(9)}  ${cost}${String(folder.deterministicFiles).padStart(17)}  ${formatCount(folder.deterministicTokens).padStart(9)}  ${plain(folder.folder)}`,
    );
  }
  return lines;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}
