import { describe, expect, it } from 'vitest';
import { SUMMARY_HEADING } from '../../../src/agent/compact/assemble-compacted.js';
import { compactIfNeeded } from '../../../src/agent/compact/compact-if-needed.js';
import { findExchangeStarts } from '../../../src/agent/compact/split-exchanges.js';
import { seededRandom } from '../../support/seeded-random.js';
import {
  callIds,
  expectValidTranscript,
  randomTranscript,
  scriptedClient,
} from './transcript-fixtures.js';

/** Enough random transcripts to hit short, long, chatty and tool-heavy shapes. */
const SEEDS = Array.from({ length: 300 }, (_, index) => index + 1);

describe('compaction over random transcripts', () => {
  it('every exchange start is a safe cut: never a tool message, never right after a call', () => {
    for (const seed of SEEDS) {
      const messages = randomTranscript(seed);
      for (const start of findExchangeStarts(messages, 1)) {
        expect(messages[start]?.role).not.toBe('tool');
        const previous = messages[start - 1];
        expect(previous?.role === 'assistant' && previous.toolCalls.length > 0).toBe(false);
      }
    }
  });

  it.each(SEEDS)(
    'seed %i: valid, first message and recent turns kept, calls never split from results',
    async (seed) => {
      const random = seededRandom(seed * 7_919);
      const messages = randomTranscript(seed);
      expectValidTranscript(messages);
      const isFailing = random() < 0.3;
      const result = await compactIfNeeded({
        client: scriptedClient(isFailing ? new Error('overloaded') : '## Goal\n- carry on'),
        system: 'system',
        messages,
        tools: [],
        contextWindow: 2_000 + Math.floor(random() * 40_000),
        redact: (text) => text,
        force: random() < 0.5,
      });
      if (result === undefined) return;
      expectValidTranscript(result.messages);
      const opening = result.messages[0]!;
      expect(
        opening.role === 'user' && opening.text.startsWith(`Task ${seed}: fix the failing build.`),
      ).toBe(true);
      // Every call kept is kept with its result, and the kept calls are the most recent ones.
      const keptIds = callIds(result.messages);
      const allIds = callIds(messages);
      expect(allIds.slice(allIds.length - keptIds.length)).toEqual(keptIds);
      // The message the next model call answers is the same one (merged into the opening when it is the only one kept).
      const lastBefore = messages.at(-1)!;
      const lastAfter = result.messages.at(-1)!;
      if (lastAfter === opening && lastBefore.role === 'user' && result.method !== 'shortened') {
        expect(opening.role === 'user' && opening.text.endsWith(lastBefore.text)).toBe(true);
      } else {
        expect(lastAfter).toEqual(lastBefore);
      }
      if (result.method === 'shortened') {
        expect(result.messages).toHaveLength(messages.length);
      } else {
        expect(opening.role === 'user' && opening.text.split(SUMMARY_HEADING)).toHaveLength(2);
        expect(result.method).toBe(isFailing ? 'deterministic' : 'model');
        // The recent exchanges after the opening are the originals, unchanged.
        const kept = result.messages.slice(1);
        expect(kept).toEqual(messages.slice(messages.length - kept.length));
        // Recompacting a compacted transcript keeps it valid and still holds one summary.
        const again = await compactIfNeeded({
          client: scriptedClient('## Goal\n- again'),
          system: 'system',
          messages: result.messages,
          tools: [],
          contextWindow: 2_000,
          redact: (text) => text,
          force: true,
        });
        if (again) {
          expectValidTranscript(again.messages);
          const reopened = again.messages[0]!;
          expect(
            reopened.role === 'user' && reopened.text.split(SUMMARY_HEADING).length,
          ).toBeLessThanOrEqual(2);
        }
      }
    },
  );

  it('covered every outcome across the seeds', async () => {
    const methods = new Set<string>();
    for (const seed of SEEDS.slice(0, 120)) {
      const result = await compactIfNeeded({
        client: scriptedClient(seed % 3 === 0 ? new Error('down') : 'summary'),
        system: '',
        messages: randomTranscript(seed),
        tools: [],
        contextWindow: 2_000 + (seed % 7) * 6_000,
        redact: (text) => text,
      });
      methods.add(result?.method ?? 'none');
    }
    expect([...methods].sort()).toEqual(['deterministic', 'model', 'none', 'shortened']);
    expect(SEEDS.length).toBeGreaterThanOrEqual(300);
  });
});
