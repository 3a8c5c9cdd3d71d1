import { isDeepStrictEqual } from 'node:util';
import type { ShardReport } from './shard-report.js';
import { refused } from './read-shard-report.js';
import { shareOfShard } from './assign-shard.js';

/** A shard report with the file it came from, for messages. */
export interface ShardInput {
  file: string;
  shard: ShardReport;
}

/**
 * What every shard of one audit must agree on, by name: the identity (commit, options, prompt
 * version, model) and everything the deterministic stages produced, which each shard ran in full.
 */
const SHARED_FIELDS: readonly { name: string; of: (shard: ShardReport) => unknown }[] = [
  { name: 'shard.count', of: (shard) => shard.shard.count },
  ...(
    [
      'oyVersion',
      'gitCommit',
      'isDirty',
      'pathFromTop',
      'planHash',
      'promptVersionHash',
      'model',
      'diffRefCommit',
    ] as const
  ).map((key) => ({ name: `identity.${key}`, of: (shard: ShardReport) => shard.identity[key] })),
  ...(
    [
      'scope',
      'riskiest',
      'focus',
      'include',
      'exclude',
      'projectInclude',
      'projectExclude',
      'diffRef',
      'history',
      'maxFileBytes',
      'chunkTokens',
      'tokenHeadroom',
      'encoding',
      'maxCostUsd',
      'isOfflineByChoice',
    ] as const
  ).map((key) => ({
    name: `identity.options.${key}`,
    of: (shard: ShardReport) => shard.identity.options[key],
  })),
  { name: 'chunks', of: (shard) => shard.chunks },
  { name: 'ledger', of: (shard) => shard.ledger },
  { name: 'allowedSecretLines', of: (shard) => shard.allowedSecretLines },
  { name: 'addedAllowLines', of: (shard) => shard.addedAllowLines },
  { name: 'historyAllowed', of: (shard) => shard.historyAllowed },
  { name: 'report.hints', of: (shard) => shard.report.hints },
  { name: 'report.secrets', of: (shard) => shard.report.secrets },
  { name: 'report.secretFiles', of: (shard) => shard.report.secretFiles },
  { name: 'report.configChanges', of: (shard) => shard.report.configChanges },
  { name: 'report.history', of: (shard) => shard.report.history ?? null },
  { name: 'report.offlineReason', of: (shard) => shard.report.offlineReason },
  { name: 'report.coverage.chunks', of: (shard) => shard.report.coverage.chunks },
  { name: 'report.coverage.scope', of: (shard) => shard.report.coverage.scope },
  {
    name: 'report.coverage.chunksSkippedByBudget',
    of: (shard) => shard.report.coverage.chunksSkippedByBudget,
  },
  { name: 'report.method', of: (shard) => ({ ...shard.report.method, promptVersionHash: null }) },
];

/**
 * Refuses shard reports that are not the N shares of one audit: a field that differs (named, with
 * both files), a shard given twice or missing, a shard whose reviewed chunks are not its share, a
 * review that does not match the identity, a path that leaves the workspace. Returns them in order.
 */
export function checkShardReports(inputs: readonly ShardInput[]): ShardInput[] {
  const [first] = inputs;
  if (first === undefined) throw refused('(none)', 'no shard report was given');
  for (const input of inputs.slice(1)) {
    for (const field of SHARED_FIELDS) {
      if (!isDeepStrictEqual(field.of(input.shard), field.of(first.shard)))
        throw refused(
          input.file,
          `field ${field.name} differs from ${first.file}: these are not shards of the same audit`,
        );
    }
  }
  for (const input of inputs) checkOne(input);
  const { count } = first.shard.shard;
  const byIndex = new Map<number, ShardInput>();
  for (const input of inputs) {
    const other = byIndex.get(input.shard.shard.index);
    if (other !== undefined)
      throw refused(
        input.file,
        `field shard.index: ${other.file} is shard ${input.shard.shard.index}/${count} too`,
      );
    byIndex.set(input.shard.shard.index, input);
  }
  const missing = Array.from({ length: count }, (_, index) => index + 1).filter(
    (index) => !byIndex.has(index),
  );
  if (missing.length > 0)
    throw refused(
      first.file,
      `field shard.count is ${count}, and shard ${missing.map((index) => `${index}/${count}`).join(', ')} is missing`,
    );
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, input]) => input);
}

function checkOne({ file, shard }: ShardInput): void {
  const { index, count } = shard.shard;
  if (index > count)
    throw refused(file, `field shard.index ${index} is above shard.count ${count}`);
  if (!isDeepStrictEqual(shard.reviewedChunks, shareOfShard(shard.chunks, index, count)))
    throw refused(file, `field reviewedChunks is not the share of shard ${index}/${count}`);
  if ((shard.review === null) !== (shard.identity.model === null))
    throw refused(file, 'field review does not match identity.model');
  const reviewed = new Set(shard.reviewedChunks);
  for (const item of shard.review?.byChunk ?? [])
    if (!reviewed.has(item.chunkId))
      throw refused(file, `field review.byChunk names chunk ${item.chunkId}, not one of its share`);
  const outside = listPaths(shard).find((place) => !isWorkspacePath(place));
  if (outside !== undefined)
    throw refused(file, `a path leaves the workspace: ${JSON.stringify(outside)}`);
}

/** Every path the merged report points a SARIF viewer at, or names as a file of the workspace. */
function listPaths(shard: ShardReport): string[] {
  const { report, review } = shard;
  return [
    shard.identity.pathFromTop,
    report.method.pathFromTop,
    ...shard.ledger.map((entry) => entry.path),
    ...shard.allowedSecretLines.map((entry) => entry.path),
    ...shard.historyAllowed.map((entry) => entry.path),
    ...report.hints.map((hint) => hint.path),
    ...report.secrets.map((secret) => secret.path),
    ...report.secretFiles.map((file) => file.path),
    ...report.configChanges.map((change) => change.path),
    ...(report.history?.secrets ?? []).map((secret) => secret.path),
    ...(review?.failedFiles ?? []).map((entry) => entry.path),
    // An unverified finding's path is the model's own words, shown as such, as the audit shows them.
    ...(review?.byChunk ?? []).flatMap((item) => item.verified.map((finding) => finding.path)),
  ];
}

/**
 * Relative and never climbing out: a leading `/` or a `..` segment, which no path git or the walker
 * lists can hold, is refused; any other name is a file's own (a backslash is a character on POSIX).
 */
export function isWorkspacePath(place: string): boolean {
  return !place.startsWith('/') && !place.split('/').includes('..');
}
