import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  assignCustomIds,
  CUSTOM_ID,
} from '../../../../src/audit/review/batch/assign-custom-ids.js';

const chunkId = () => createHash('sha256').update(randomBytes(16)).digest('hex');

describe('assignCustomIds', () => {
  it('derives each id from its chunk id, within the API pattern', () => {
    const ids = [chunkId(), chunkId(), chunkId()];
    const custom = assignCustomIds(ids);
    expect(custom).toHaveLength(3);
    custom.forEach((id, index) => {
      expect(id).toMatch(CUSTOM_ID);
      expect(id).toBe(`chunk-${ids[index]!.slice(0, 48)}`);
    });
  });

  it('keeps ids unique when chunk ids repeat or share their first 48 digits', () => {
    const same = chunkId();
    const twin = `${same.slice(0, 48)}${'0'.repeat(16)}`;
    const custom = assignCustomIds([same, same, twin, same]);
    expect(new Set(custom).size).toBe(4);
    expect(custom.slice(1)).toEqual([
      `chunk-${same.slice(0, 48)}-2`,
      `chunk-${same.slice(0, 48)}-3`,
      `chunk-${same.slice(0, 48)}-4`,
    ]);
    for (const id of custom) expect(id).toMatch(CUSTOM_ID);
  });

  it('makes any character outside [a-zA-Z0-9_-] safe, and stays within 64 characters at 100,000 repeats', () => {
    const hostile = `../\u0000 é:${'x'.repeat(80)}`;
    const custom = assignCustomIds(Array.from({ length: 100_000 }, () => hostile));
    expect(new Set(custom).size).toBe(100_000);
    for (const id of [custom[0]!, custom.at(-1)!]) expect(id).toMatch(CUSTOM_ID);
    expect(custom.at(-1)!.length).toBeLessThanOrEqual(64);
  });
});
