import { describe, expect, it } from 'vitest';
import { orderChunksByRisk } from '../../../src/audit/chunk/order-chunks-by-risk.js';
import type { Chunk } from '../../../src/audit/types.js';

const chunk = (id: string, riskScore: number): Chunk => ({ id, parts: [], tokens: 1, riskScore });

describe('orderChunksByRisk', () => {
  it('puts the riskiest first and keeps path order among equals, without changing its input', () => {
    const chunks = [chunk('a', 0), chunk('b', 5), chunk('c', 0), chunk('d', 9), chunk('e', 5)];
    expect(orderChunksByRisk(chunks).map((c) => c.id)).toEqual(['d', 'b', 'e', 'a', 'c']);
    expect(chunks.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
