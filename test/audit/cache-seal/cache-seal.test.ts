import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CacheSeal } from '../../../src/audit/cache-seal/cache-seal.js';

const stateKey = randomBytes(32);
const text = JSON.stringify({ entries: { a: 1 }, note: `fresh ${randomBytes(8).toString('hex')}` });

describe('CacheSeal', () => {
  it('opens what it sealed, for the same context', () => {
    const seal = CacheSeal.derive(stateKey, 'scan-cache');
    const sealed = seal.seal(text, '/work/repo');
    expect(sealed).toMatch(/^[0-9a-f]{64}\n/);
    expect(seal.open(Buffer.from(sealed), '/work/repo')).toEqual({ text });
  });

  it.each([
    [
      'another state key (another machine, another job)',
      () => CacheSeal.derive(randomBytes(32), 'scan-cache'),
      '/work/repo',
    ],
    [
      'the same key for another purpose',
      () => CacheSeal.derive(stateKey, 'map-cache'),
      '/work/repo',
    ],
    [
      'another context (another workspace, another entry key)',
      () => CacheSeal.derive(stateKey, 'scan-cache'),
      '/work/other',
    ],
    ['a process with no state key', () => CacheSeal.derive(undefined, 'scan-cache'), '/work/repo'],
  ])('does not verify under %s', (_name, reader, context) => {
    const sealed = CacheSeal.derive(stateKey, 'scan-cache').seal(text, '/work/repo');
    expect(reader().open(Buffer.from(sealed), context)).toEqual({ problem: 'mismatch' });
  });

  it('refuses a changed byte anywhere, a made-up MAC and a file with no seal', () => {
    const seal = CacheSeal.derive(stateKey, 'scan-cache');
    const sealed = Buffer.from(seal.seal(text, 'c'));
    for (const at of [0, 63, 65, sealed.length - 1]) {
      const changed = Buffer.from(sealed);
      changed[at] = changed[at] === 0x30 ? 0x31 : 0x30;
      expect(seal.open(changed, 'c')).toHaveProperty('problem');
    }
    expect(seal.open(Buffer.from(`${'0'.repeat(64)}\n${text}`), 'c')).toEqual({
      problem: 'mismatch',
    });
    expect(seal.open(Buffer.from(text), 'c')).toEqual({ problem: 'unsealed' });
    expect(seal.open(Buffer.from(''), 'c')).toEqual({ problem: 'unsealed' });
  });
});
