import { beforeAll, describe, expect, it } from 'vitest';
import { createSession, loadSession } from '../../../src/agent/session/session-store.js';
import { UsageError } from '../../../src/shared/errors.js';
import { TURN_1, makeDirs, writeTurn } from './session-fixtures.js';

/** Three sessions a minute apart; the ids of the two older ones share a prefix. */
async function makeSessions() {
  const { stateDir, workspace } = makeDirs();
  const start = (minute: number) => () => new Date(Date.UTC(2026, 10, 22, 4, minute, 0));
  const make = async (minute: number, name?: string) => {
    const writer = await createSession({
      stateDir,
      workspaceRoot: workspace,
      model: 'anthropic::m',
      oyVersion: '0.1.0',
      now: start(minute),
      ...(name === undefined ? {} : { name }),
    });
    await writeTurn(writer, 1, TURN_1);
    return writer.id;
  };
  const oldest = await make(1, 'refactor');
  const middle = await make(2);
  const newest = await make(30, 'refactor');
  return { stateDir, workspace, oldest, middle, newest };
}

describe('loadSession selectors', () => {
  let s: Awaited<ReturnType<typeof makeSessions>>;
  beforeAll(async () => {
    s = await makeSessions();
  });
  const pick = async (selector: string) =>
    (await loadSession(s.stateDir, s.workspace, selector)).summary.id;

  it.each([
    ['latest', () => s.newest],
    ['1', () => s.newest],
    ['3', () => s.oldest],
    ['refactor', () => s.newest],
  ])('%s picks the right session', async (selector, expected) => {
    expect(await pick(selector)).toBe(expected());
  });

  it('finds an exact id and a unique id prefix', async () => {
    expect(await pick(s.middle)).toBe(s.middle);
    expect(await pick('20261122-0402')).toBe(s.middle);
    expect(await pick(s.oldest.slice(0, 18))).toBe(s.oldest);
  });

  it('numbers newest first', async () => {
    const numbers = await Promise.all(
      [s.newest, s.middle, s.oldest].map(
        async (id) => (await loadSession(s.stateDir, s.workspace, id)).summary.number,
      ),
    );
    expect(numbers).toEqual([1, 2, 3]);
  });

  it('refuses an ambiguous prefix and names the candidates', async () => {
    const error = await loadSession(s.stateDir, s.workspace, '20261122-040').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain(s.oldest);
    expect((error as UsageError).message).toContain(s.middle);
    expect((error as UsageError).message).not.toContain(s.newest);
  });

  it.each(['nope', '4', '0', '', '20261123'])(
    'refuses %j with a hint to list sessions',
    async (selector) => {
      const error = await loadSession(s.stateDir, s.workspace, selector).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).hint).toContain('oy sessions');
    },
  );

  it('says there is no saved session when the workspace has none', async () => {
    const empty = makeDirs();
    const error = await loadSession(empty.stateDir, empty.workspace, 'latest').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('no saved session for this workspace');
    expect((error as UsageError).hint).toBeTruthy();
  });
});
