import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveUserConfigValues } from '../../src/config/save-user-config.js';
import { ConfigError } from '../../src/shared/errors.js';

const fresh = () =>
  path.join(mkdtempSync(path.join(tmpdir(), 'oy-save-')), 'deep', 'oy', 'config.json');

describe('saveUserConfigValues', () => {
  it('creates a private file in a private directory', async () => {
    const file = fresh();
    await saveUserConfigValues(file, { model: 'openai::o3' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'openai::o3' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('keeps the other keys and replaces the one given', async () => {
    const file = fresh();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ model: 'old', audit: { focus: ['auth'] }, custom: 1 }));
    await saveUserConfigValues(file, { model: 'new' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      model: 'new',
      audit: { focus: ['auth'] },
      custom: 1,
    });
  });

  it.each([['{ broken'], ['[1, 2]'], ['"text"']])('refuses to overwrite %s', async (content) => {
    const file = fresh();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    await expect(saveUserConfigValues(file, { model: 'x' })).rejects.toBeInstanceOf(ConfigError);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('treats an empty file as an empty object', async () => {
    const file = fresh();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '\n');
    await saveUserConfigValues(file, { model: 'x' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'x' });
  });
});
