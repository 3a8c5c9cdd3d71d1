import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { UsageError } from '../../shared/errors.js';
import { readUpTo } from '../../shared/files/read-up-to.js';
import { shardDigest } from './shard-digest.js';
import type { ShardReport } from './shard-report.js';
import { shardReportValidator } from './shard-report-schema.js';

/** Far above a 200-chunk audit's shard report (a few MB); a larger file is not read. */
export const MAX_SHARD_REPORT_BYTES = 256 * 1024 * 1024;

// No wait on a FIFO; a link the user names is theirs to name, so it is followed.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** A shard report read from `file`, checked against its schema and digest; anything else is refused. */
export async function readShardReport(file: string): Promise<ShardReport> {
  const text = await readInput(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw refused(file, `it is not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || !('oyShardReport' in value))
    throw refused(file, 'it is not an oy shard report (no oyShardReport field)');
  const document = value as Record<string, unknown>;
  const { oySeal, ...body } = document;
  if (oySeal !== undefined && typeof oySeal !== 'string')
    throw refused(file, 'field oySeal is not a seal');
  const parsed = shardReportValidator().safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'the document';
    throw refused(file, `field ${where} is invalid: ${issue?.message ?? 'unexpected shape'}`);
  }
  if (shardDigest(document) !== body.digest)
    throw refused(
      file,
      'field digest does not match its content: the file was changed after oy wrote it',
    );
  return body as unknown as ShardReport;
}

async function readInput(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    throw refused(
      file,
      `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw refused(file, 'it is not a regular file');
    if (stats.size > MAX_SHARD_REPORT_BYTES)
      throw refused(file, `it is larger than ${MAX_SHARD_REPORT_BYTES} bytes`);
    return (await readUpTo(handle, stats.size)).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Every refusal names the file and what is wrong with it (exit 2). */
export function refused(file: string, detail: string): UsageError {
  return new UsageError(`cannot merge ${file}: ${detail}`, {
    hint: 'give the JSON files that `oy audit --shard K/N` wrote, one per shard, from the same commit and options',
  });
}
