import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/providers/types.js';
import { listSessions, loadSession } from '../../../src/agent/session/session-store.js';
import { UsageError } from '../../../src/shared/errors.js';
import {
  TURN_1,
  TURN_2,
  TURN_3,
  expectValidTranscript,
  makeDirs,
  writeSampleSession,
} from './session-fixtures.js';

/** What a load must give once the first `n` turn lines are on disk: every finished turn, nothing else. */
const COMMITTED: Message[][] = [
  [],
  TURN_1,
  [...TURN_1, ...TURN_2],
  [...TURN_1, ...TURN_2, ...TURN_3],
];

function isTurnLine(line: string): boolean {
  try {
    return (JSON.parse(line) as { type?: unknown }).type === 'turn';
  } catch {
    return false;
  }
}

describe('a session file cut anywhere (kill -9 mid-write)', () => {
  const { stateDir, workspace } = makeDirs();
  let file = '';
  let full = Buffer.alloc(0);
  let headerEnd = 0;
  let offsets: number[] = [];

  beforeAll(async () => {
    file = (await writeSampleSession(stateDir, workspace)).file;
    full = readFileSync(file);
    headerEnd = full.indexOf(0x0a);
    // Every byte offset: each line boundary and each point inside every line, the last one included.
    offsets = Array.from({ length: full.length + 1 }, (_, offset) => offset);
  });

  it('is cut at every one of its offsets', () => {
    expect(offsets.length).toBeGreaterThan(1500);
    expect(full.toString('utf8').trimEnd().split('\n')).toHaveLength(18);
  });

  it('never throws, gives a valid transcript, and loses at most the unfinished turn', async () => {
    let checked = 0;
    for (const offset of offsets) {
      const cut = full.subarray(0, offset);
      writeFileSync(file, cut);
      if (offset < headerEnd) {
        expect(await listSessions(stateDir, workspace)).toEqual([]);
        await expect(loadSession(stateDir, workspace, 'latest')).rejects.toBeInstanceOf(UsageError);
        checked++;
        continue;
      }
      const text = cut.toString('utf8');
      // A turn line counts once it is whole, with or without its newline.
      const finishedTurns = text.split('\n').filter(isTurnLine).length;
      const loaded = await loadSession(stateDir, workspace, 'latest');
      expectValidTranscript(loaded.messages);
      expect(loaded.messages, `cut at byte ${offset}`).toEqual(COMMITTED[finishedTurns]);
      expect(loaded.turns).toBe(finishedTurns);
      checked++;
    }
    expect(checked).toBe(offsets.length);
  });
});
