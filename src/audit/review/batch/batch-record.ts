import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../../shared/write-file-atomic.js';
import { CUSTOM_ID } from './assign-custom-ids.js';
import { MAP_CACHE_KEY } from '../map-cache.js';

/** Bump when the stored shape changes; an older record is then not found, and the chunks are submitted again. */
const BATCH_RECORD_VERSION = 1;
/** Sub-folder of the state folder that holds the records of batches still out. */
export const BATCH_RECORD_SUBDIR = 'batches';
/** A record lists a few hundred requests at most in practice; anything near this is not one of ours. */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;
/** A batch id as the Anthropic API issues them (`msgbatch_…`), checked before it goes into a URL. */
const BATCH_ID = /^[a-zA-Z0-9_-]{1,128}$/;

/** What identifies a run's batch: the workspace, the model and every request with the map cache key it answers. */
export interface BatchRunIdentity {
  workspace: string;
  model: string;
  requests: { customId: string; key: string }[];
}

/** A batch submitted and not yet read back, kept so a rerun picks it up instead of paying twice. */
export interface BatchRecord extends BatchRunIdentity {
  batchId: string;
  createdAt: string;
  expiresAt: string;
}

const storedRecord = z
  .object({
    version: z.literal(BATCH_RECORD_VERSION),
    batchId: z.string().regex(BATCH_ID),
    workspace: z.string(),
    model: z.string(),
    requests: z.array(
      z
        .object({ customId: z.string().regex(CUSTOM_ID), key: z.string().regex(MAP_CACHE_KEY) })
        .strict(),
    ),
    createdAt: z.string(),
    expiresAt: z.string(),
  })
  .strict();

/**
 * `<stateDir>/batches/<hash>.json`, one file per run identity: the hash covers the workspace, the model and
 * the requests, so a rerun with the same chunks finds the record and any other run does not.
 */
export function batchRecordPath(stateDir: string, identity: BatchRunIdentity): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([identity.workspace, identity.model, sortedRequests(identity)]))
    .digest('hex');
  return path.join(stateDir, BATCH_RECORD_SUBDIR, `${hash.slice(0, 32)}.json`);
}

/** The record of this run's batch, or undefined when there is none or it is not exactly this run's. */
export async function readBatchRecord(
  stateDir: string,
  identity: BatchRunIdentity,
): Promise<BatchRecord | undefined> {
  let text: string;
  try {
    // No link is followed: the state folder is private, and a link in it is no record of ours.
    const handle = await open(
      batchRecordPath(stateDir, identity),
      constants.O_RDONLY | constants.O_NOFOLLOW,
    );
    try {
      const stats = await handle.stat();
      if (!stats.isFile() || stats.size > MAX_RECORD_BYTES) return undefined;
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  let parsed;
  try {
    parsed = storedRecord.safeParse(JSON.parse(text));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  const { version: _version, ...record } = parsed.data;
  const isSameRun =
    record.workspace === identity.workspace &&
    record.model === identity.model &&
    JSON.stringify(sortedRequests(record)) === JSON.stringify(sortedRequests(identity));
  return isSameRun ? record : undefined;
}

/** Writes the record atomically, 0600 in a 0700 folder, as every other state file. */
export async function writeBatchRecord(stateDir: string, record: BatchRecord): Promise<void> {
  const data = JSON.stringify({ version: BATCH_RECORD_VERSION, ...record }, null, 2);
  await writeFileAtomic(batchRecordPath(stateDir, record), `${data}\n`, {
    mode: 0o600,
    dirMode: 0o700,
  });
}

export async function removeBatchRecord(
  stateDir: string,
  identity: BatchRunIdentity,
): Promise<void> {
  await rm(batchRecordPath(stateDir, identity), { force: true });
}

function sortedRequests(identity: Pick<BatchRunIdentity, 'requests'>): [string, string][] {
  return identity.requests
    .map(({ customId, key }): [string, string] => [customId, key])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
