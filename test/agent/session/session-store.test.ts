import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSession,
  listSessions,
  loadSession,
  openSession,
} from '../../../src/agent/session/session-store.js';
import { workspaceKey } from '../../../src/agent/session/session-paths.js';
import {
  TURN_1,
  TURN_2,
  TURN_3,
  answer,
  calls,
  expectValidTranscript,
  makeDirs,
  results,
  steppingClock,
  user,
  writeSampleSession,
  writeTurn,
} from './session-fixtures.js';

const base = { model: 'anthropic::claude-sonnet-4-5', oyVersion: '0.1.0' };

describe('session files', () => {
  it('round-trips messages, turns, usage, cost and todos, losing only the crashed turn', async () => {
    const { stateDir, workspace } = makeDirs();
    const writer = await writeSampleSession(stateDir, workspace);
    const loaded = await loadSession(stateDir, workspace, 'latest');
    expect(loaded.summary.id).toBe(writer.id);
    expect(loaded.summary.file).toBe(writer.file);
    expect(loaded.messages).toEqual([...TURN_1, ...TURN_2, ...TURN_3]);
    expect(loaded.turns).toBe(3);
    expect(loaded.usage).toEqual({
      inputTokens: 600,
      outputTokens: 30,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(loaded.costUsd).toBeCloseTo(0.03);
    expect(loaded.todos).toEqual([{ id: '1', task: 'read two', status: 'in_progress' }]);
    expect(loaded.summary).toMatchObject({
      number: 1,
      workspace,
      model: 'anthropic::m',
      firstPrompt: 'list the files',
      turns: 3,
      createdAt: '2026-11-22T04:44:01.000Z',
    });
    expectValidTranscript(loaded.messages);
  });

  it('names files by a sortable id under a readable, per-workspace directory', async () => {
    const { stateDir, workspace } = makeDirs();
    const writer = await createSession({
      stateDir,
      workspaceRoot: workspace,
      ...base,
      now: () => new Date('2026-11-22T04:44:00.123Z'),
    });
    expect(writer.id).toMatch(/^20261122-044400-[0-9a-f]{6}$/);
    expect(path.dirname(writer.file)).toBe(
      path.join(stateDir, 'sessions', workspaceKey(workspace)),
    );
    expect(path.basename(path.dirname(writer.file))).toMatch(/^my_project-[0-9a-f]{16}$/);
    const header = JSON.parse(readFileSync(writer.file, 'utf8').split('\n')[0]!) as Record<
      string,
      unknown
    >;
    expect(header).toMatchObject({
      type: 'session',
      version: 1,
      id: writer.id,
      workspace,
      ...base,
    });
    expect(header).not.toHaveProperty('mode');
  });

  it('keeps files 0600 and directories 0700, tightening looser ones', async () => {
    const { stateDir, workspace } = makeDirs();
    mkdirSync(path.join(stateDir, 'sessions'), { recursive: true, mode: 0o755 });
    chmodSync(stateDir, 0o755);
    chmodSync(path.join(stateDir, 'sessions'), 0o777);
    const writer = await createSession({ stateDir, workspaceRoot: workspace, ...base });
    await writeTurn(writer, 1, TURN_1);
    const modeOf = (file: string): number => statSync(file).mode & 0o777;
    expect(modeOf(writer.file)).toBe(0o600);
    for (const dir of [stateDir, path.join(stateDir, 'sessions'), path.dirname(writer.file)])
      expect(modeOf(dir)).toBe(0o700);

    chmodSync(writer.file, 0o644);
    const resumed = await openSession(await loadSession(stateDir, workspace, 'latest'));
    await resumed.appendMessage(2, user('again'));
    expect(modeOf(writer.file)).toBe(0o600);
  });

  it('serializes concurrent writes into whole lines in call order', async () => {
    const { stateDir, workspace } = makeDirs();
    const writer = await createSession({ stateDir, workspaceRoot: workspace, ...base });
    const big = 'x'.repeat(300_000);
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => writer.appendMessage(1, user(`${index} ${big}`))),
    );
    const lines = readFileSync(writer.file, 'utf8').trimEnd().split('\n').slice(1);
    expect(
      lines.map(
        (line) => (JSON.parse(line) as { message: { text: string } }).message.text.split(' ')[0],
      ),
    ).toEqual(Array.from({ length: 20 }, (_, index) => String(index)));
  });

  it('applies a compaction once its turn finishes, and drops one whose turn crashed', async () => {
    const { stateDir, workspace } = makeDirs();
    const writer = await createSession({
      stateDir,
      workspaceRoot: workspace,
      ...base,
      now: steppingClock(),
    });
    await writeTurn(writer, 1, TURN_1);
    await writeTurn(writer, 2, TURN_2);
    await writer.appendMessage(3, TURN_3[0]!);
    const summary = answer('summary: listed files, read two');
    await writer.saveCompaction([TURN_1[0]!, summary, TURN_3[0]!], 5000, 900);
    expect((await loadSession(stateDir, workspace, 'latest')).messages).toEqual([
      ...TURN_1,
      ...TURN_2,
    ]);
    await writer.appendMessage(3, TURN_3[1]!);
    await writer.endTurn(
      3,
      { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      0,
    );
    expect((await loadSession(stateDir, workspace, 'latest')).messages).toEqual([
      TURN_1[0],
      summary,
      ...TURN_3,
    ]);
  });

  it('undo removes the turn and every later one, even after a compaction', async () => {
    const { stateDir, workspace } = makeDirs();
    const writer = await createSession({
      stateDir,
      workspaceRoot: workspace,
      ...base,
      now: steppingClock(),
    });
    await writeTurn(writer, 1, TURN_1);
    await writeTurn(writer, 2, TURN_2);
    await writeTurn(writer, 3, TURN_3);
    await writer.recordUndo(3);
    expect((await loadSession(stateDir, workspace, 'latest')).messages).toEqual([
      ...TURN_1,
      ...TURN_2,
    ]);

    await writeTurn(writer, 4, TURN_3);
    await writer.saveCompaction([TURN_1[0]!, answer('summary'), ...TURN_3], 10, 5);
    await writeTurn(writer, 5, [user('last'), answer('ok')]);
    await writer.recordUndo(4);
    const loaded = await loadSession(stateDir, workspace, 'latest');
    expect(loaded.messages).toEqual([TURN_1[0], answer('summary')]);
    expect(loaded.turns).toBe(5);
    expectValidTranscript(loaded.messages);
  });

  it('takes the name from the newest name line and marks cost unknown once a turn was unpriced', async () => {
    const { stateDir, workspace } = makeDirs();
    const writer = await createSession({
      stateDir,
      workspaceRoot: workspace,
      ...base,
      name: 'first',
      now: steppingClock(),
    });
    await writeTurn(writer, 1, TURN_1, 0.5);
    expect((await listSessions(stateDir, workspace))[0]).toMatchObject({
      name: 'first',
      costUsd: 0.5,
    });
    await writer.saveName('renamed');
    await writeTurn(writer, 2, TURN_2, null);
    expect((await listSessions(stateDir, workspace))[0]).toMatchObject({
      name: 'renamed',
      costUsd: null,
    });
  });

  it('resumes a crashed session: the torn turn is abandoned and the next one appends cleanly', async () => {
    const { stateDir, workspace } = makeDirs();
    const first = await writeSampleSession(stateDir, workspace);
    // A kill -9 in the middle of a line.
    writeFileSync(first.file, readFileSync(first.file, 'utf8') + '{"type":"message","at":"2026-');
    const loaded = await loadSession(stateDir, workspace, 'latest');
    const writer = await openSession(loaded, steppingClock(Date.UTC(2026, 10, 23)));
    expect(writer.id).toBe(first.id);
    await writeTurn(writer, loaded.turns + 1, [
      user('retry'),
      calls('c9'),
      results('c9'),
      answer('fine'),
    ]);
    const again = await loadSession(stateDir, workspace, writer.id);
    expect(again.messages).toEqual([
      ...TURN_1,
      ...TURN_2,
      ...TURN_3,
      user('retry'),
      calls('c9'),
      results('c9'),
      answer('fine'),
    ]);
    expect(again.turns).toBe(4);
    expect(again.summary.updatedAt.startsWith('2026-11-23')).toBe(true);
  });

  it('keeps each workspace to its own sessions', async () => {
    const { stateDir, workspace } = makeDirs();
    const other = path.join(path.dirname(workspace), 'other', 'my project');
    mkdirSync(other, { recursive: true });
    const mine = await createSession({ stateDir, workspaceRoot: workspace, ...base });
    const theirs = await createSession({ stateDir, workspaceRoot: other, ...base });
    expect(path.dirname(mine.file)).not.toBe(path.dirname(theirs.file));
    expect((await listSessions(stateDir, workspace)).map((s) => s.id)).toEqual([mine.id]);
    expect((await listSessions(stateDir, other)).map((s) => s.id)).toEqual([theirs.id]);
    await expect(loadSession(stateDir, other, mine.id)).rejects.toThrow(/no session/);

    // A file copied into the wrong directory still names its own workspace.
    const copy = path.join(path.dirname(mine.file), path.basename(theirs.file));
    writeFileSync(copy, readFileSync(theirs.file));
    expect((await listSessions(stateDir, workspace)).map((s) => s.id)).toEqual([mine.id]);
  });

  it('lists nothing, and never crashes, for missing directories and files that are not sessions', async () => {
    const { stateDir, workspace } = makeDirs();
    expect(await listSessions(stateDir, workspace)).toEqual([]);
    const writer = await createSession({ stateDir, workspaceRoot: workspace, ...base });
    const dir = path.dirname(writer.file);
    writeFileSync(path.join(dir, 'garbage.jsonl'), 'not json\n{"type":"session"}\n');
    writeFileSync(path.join(dir, 'empty.jsonl'), '');
    writeFileSync(
      path.join(dir, 'message-first.jsonl'),
      '{"type":"message","at":"x","turn":1,"message":{"role":"user","text":"hi"}}\n',
    );
    mkdirSync(path.join(dir, 'dir.jsonl'));
    writeFileSync(writer.file, readFileSync(writer.file, 'utf8') + '{"type":"future","at":"x"}\n');
    expect((await listSessions(stateDir, workspace)).map((s) => s.id)).toEqual([writer.id]);
    expect(readdirSync(dir)).toHaveLength(5);
  });
});
