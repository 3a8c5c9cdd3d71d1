import { createHash, randomBytes } from 'node:crypto';
import {
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  batchRecordPath,
  readBatchRecord,
  removeBatchRecord,
  writeBatchRecord,
  type BatchRunIdentity,
} from '../../../../src/audit/review/batch/batch-record.js';

const key = () => createHash('sha256').update(randomBytes(8)).digest('hex');
const identity = (): BatchRunIdentity => ({
  workspace: `/work/${randomBytes(4).toString('hex')}`,
  model: 'anthropic::claude-haiku-4-5',
  requests: [
    { customId: 'chunk-a', key: key() },
    { customId: 'chunk-b', key: key() },
  ],
});
const record = (run: BatchRunIdentity) => ({
  ...run,
  batchId: `msgbatch_${randomBytes(6).toString('hex')}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-02T00:00:00.000Z',
});

describe('batch record', () => {
  it('is written 0600 in a 0700 folder, found by the same run and removed', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'oy-batch-state-'));
    const run = identity();
    const written = record(run);
    await writeBatchRecord(stateDir, written);
    const file = batchRecordPath(stateDir, run);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    // The order of the requests does not matter.
    const reordered = { ...run, requests: [...run.requests].reverse() };
    expect(await readBatchRecord(stateDir, reordered)).toEqual(written);
    await removeBatchRecord(stateDir, run);
    expect(await readBatchRecord(stateDir, run)).toBeUndefined();
  });

  it('is not found by another workspace, model or set of chunks', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'oy-batch-state-'));
    const run = identity();
    await writeBatchRecord(stateDir, record(run));
    expect(await readBatchRecord(stateDir, { ...run, workspace: '/elsewhere' })).toBeUndefined();
    expect(
      await readBatchRecord(stateDir, { ...run, model: 'anthropic::claude-opus-4-1' }),
    ).toBeUndefined();
    expect(
      await readBatchRecord(stateDir, { ...run, requests: run.requests.slice(0, 1) }),
    ).toBeUndefined();
  });

  it('a planted, corrupt or linked record is ignored, never trusted', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'oy-batch-state-'));
    const run = identity();
    const file = batchRecordPath(stateDir, run);
    mkdirSync(path.dirname(file), { recursive: true });
    // Right place, but a batch id that would reach another path of the API.
    writeFileSync(file, JSON.stringify({ version: 1, ...record(run), batchId: '../../v1/files' }));
    expect(await readBatchRecord(stateDir, run)).toBeUndefined();
    // The record of another run copied into this run's place.
    const other = identity();
    writeFileSync(file, JSON.stringify({ version: 1, ...record(other) }));
    expect(await readBatchRecord(stateDir, run)).toBeUndefined();
    writeFileSync(file, '{ not json');
    expect(await readBatchRecord(stateDir, run)).toBeUndefined();
    // A link to a record elsewhere is not followed.
    const elsewhere = path.join(stateDir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ version: 1, ...record(run) }));
    writeFileSync(file, '');
    const { rmSync } = await import('node:fs');
    rmSync(file);
    symlinkSync(elsewhere, file);
    expect(await readBatchRecord(stateDir, run)).toBeUndefined();
    expect(readFileSync(elsewhere, 'utf8')).toContain(run.workspace);
  });
});
