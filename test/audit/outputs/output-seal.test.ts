import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOutputSealKey } from '../../../src/audit/outputs/load-output-seal-key.js';
import {
  hasOutputSeal,
  sealOutput,
  type SealShape,
} from '../../../src/audit/outputs/output-seal.js';

const key = randomBytes(32);
const DOCUMENTS: [SealShape, string][] = [
  ['markdown', '# Audit Issues\n\n> Generated with oy 1.0.0: `oy audit`\n\nbody\n'],
  ['json', `${JSON.stringify({ schemaVersion: 1, tool: { name: 'oy' }, files: [] }, null, 2)}\n`],
  ['sarif', `${JSON.stringify({ version: '2.1.0', runs: [] }, null, 2)}\n`],
];

describe('the output seal', () => {
  it.each(DOCUMENTS)(
    'a sealed %s document is recognised with the key that sealed it',
    (shape, text) => {
      const sealed = sealOutput(text, shape, key);
      expect(hasOutputSeal(sealed, key)).toBe(true);
      expect(hasOutputSeal(Buffer.from(sealed), key)).toBe(true);
      if (shape !== 'markdown') expect(() => JSON.parse(sealed) as unknown).not.toThrow();
      // Control: the document as rendered, before sealing, is not.
      expect(hasOutputSeal(text, key)).toBe(false);
    },
  );

  it.each(DOCUMENTS)(
    'a %s document is not recognised with another key, or changed anywhere',
    (shape, text) => {
      const sealed = sealOutput(text, shape, key);
      expect(hasOutputSeal(sealed, randomBytes(32))).toBe(false);
      expect(hasOutputSeal(`x${sealed}`, key)).toBe(false);
      expect(hasOutputSeal(sealed.replace('oy', 'oz'), key)).toBe(false);
      expect(hasOutputSeal(`${sealed}\n`, key)).toBe(false);
      expect(hasOutputSeal(sealed.replace(/[0-9a-f]{64}/, '0'.repeat(64)), key)).toBe(false);
    },
  );

  it('a seal cannot be moved to another document', () => {
    const [, first] = DOCUMENTS[0]!;
    const seal = /oy-seal: ([0-9a-f]{64})/.exec(sealOutput(first, 'markdown', key))![1]!;
    expect(hasOutputSeal(`# Audit Issues\n\nother\n<!-- oy-seal: ${seal} -->\n`, key)).toBe(false);
  });

  it('refuses to seal a JSON document that does not end as oy renders it', () => {
    expect(() => sealOutput('{"a": 1}', 'json', key)).toThrow(/cannot seal/);
  });
});

describe('loadOutputSealKey', () => {
  it('makes a private key on first use and returns the same one after', async () => {
    const stateDir = path.join(mkdtempSync(path.join(tmpdir(), 'oy-seal-key-')), 'oy');
    const first = await loadOutputSealKey(stateDir);
    expect(first).toHaveLength(32);
    expect(statSync(path.join(stateDir, 'output-seal.key')).mode & 0o777).toBe(0o600);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(Buffer.from(await loadOutputSealKey(stateDir)).equals(Buffer.from(first))).toBe(true);
  });

  it('does not follow a link planted in place of the key file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'oy-seal-key-'));
    const stateDir = path.join(dir, 'oy');
    mkdirSync(stateDir, { mode: 0o700 });
    const planted = path.join(dir, 'planted.key');
    const known = randomBytes(32).toString('hex');
    writeFileSync(planted, `${known}\n`);
    symlinkSync(planted, path.join(stateDir, 'output-seal.key'));
    const loaded = Buffer.from(await loadOutputSealKey(stateDir)).toString('hex');
    expect(loaded).not.toBe(known);
    // The link was replaced by a key file of oy's own; the planted file is untouched.
    expect(lstatSync(path.join(stateDir, 'output-seal.key')).isFile()).toBe(true);
    expect(readFileSync(planted, 'utf8')).toBe(`${known}\n`);
  });

  it('takes OY_STATE_KEY over the file, writing no key file, and refuses a malformed one without quoting it', async () => {
    const stateDir = path.join(mkdtempSync(path.join(tmpdir(), 'oy-seal-key-')), 'oy');
    const given = randomBytes(32).toString('hex');
    const loaded = await loadOutputSealKey(stateDir, given.toUpperCase());
    expect(Buffer.from(loaded).toString('hex')).toBe(given);
    expect(() => statSync(stateDir)).toThrow();
    const short = given.slice(0, 40);
    const refused = loadOutputSealKey(stateDir, short);
    await expect(refused).rejects.toThrow(
      /^OY_STATE_KEY must be 64 hexadecimal digits \(32 bytes\), got 40 characters$/,
    );
    await expect(refused).rejects.not.toThrow(short);
    // Empty counts as unset, as for the other variables.
    expect(await loadOutputSealKey(stateDir, '')).toHaveLength(32);
  });

  it('falls back to a key for this run when the state folder cannot be written', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'oy-seal-key-'));
    chmodSync(dir, 0o500);
    try {
      const key1 = await loadOutputSealKey(path.join(dir, 'oy'));
      const key2 = await loadOutputSealKey(path.join(dir, 'oy'));
      expect(key1).toHaveLength(32);
      // Root ignores the mode: then the folder was writable and the key is stable, which is fine.
      if (process.getuid?.() !== 0) expect(Buffer.from(key1).equals(Buffer.from(key2))).toBe(false);
    } finally {
      chmodSync(dir, 0o700);
    }
  });
});
