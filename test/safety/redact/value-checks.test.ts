import { describe, expect, it } from 'vitest';
import { isPlaceholderValue } from '../../../src/safety/redact/is-placeholder-value.js';
import { isPlausibleSecret } from '../../../src/safety/redact/is-plausible-secret.js';
import { looksLikeWords } from '../../../src/safety/redact/looks-like-words.js';
import { shannonEntropy } from '../../../src/safety/redact/shannon-entropy.js';
import { createSecretFactory } from '../../support/secret-factory.js';

const f = createSecretFactory(4242);

describe('shannonEntropy', () => {
  it('is 0 for empty or repeated text and log2(n) for n distinct characters', () => {
    expect(shannonEntropy('')).toBe(0);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('ab')).toBe(1);
    expect(shannonEntropy('abcdefgh')).toBe(3);
    expect(shannonEntropy('aabb')).toBe(1);
  });
});

describe('isPlaceholderValue', () => {
  it.each([
    '${DB_PASSWORD}',
    '$(cat /run/secret)',
    '{{ secret }}',
    '#{token}',
    '%(password)s',
    '<password>',
    '{password}',
    '$PASSWORD',
    '%APPDATA%',
    'changeme',
    'my-example-key',
    'your_api_key',
    'xxxxxxxxxxxx',
    '************',
    '••••••',
    'sk-...',
    '12345678',
    'aaaaaaaa',
    'a-a-a-a-a',
    'Password1!',
    'p4ssw0rd',
    'S3cr3t',
    'fake_service_account',
    '',
  ])('%s is a placeholder', (value) => {
    expect(isPlaceholderValue(value)).toBe(true);
  });

  it('does not take random values for placeholders', () => {
    for (let index = 0; index < 200; index += 1) {
      expect(isPlaceholderValue(f.genericSecret())).toBe(false);
    }
  });
});

describe('looksLikeWords', () => {
  it.each([
    'auth-token',
    'X-Api-Key',
    'defaultSecret2',
    'CommentOrToken',
    'EndOfFileToken',
    'HTTPServerName',
    'XMLHttpRequest',
    'correcthorsebatterystaple',
    'this.result.issues',
  ])('%s reads as words', (value) => {
    expect(looksLikeWords(value)).toBe(true);
  });

  it.each([
    'hJkLmNoPqRsTuVwX',
    'FiOSRFRoxaWBWyLQZlpT',
    'fiosrfroxawbwylqzlpt',
    'FIOSRFROXAWBWYLQZLPT',
    'a8f5f167f44f4964e6c998dee827110c',
    'Zq8Xk2mP7vR4nT9w',
  ])('%s reads as random', (value) => {
    expect(looksLikeWords(value)).toBe(false);
  });
});

describe('isPlausibleSecret', () => {
  it('accepts random values quoted or not', () => {
    for (let index = 0; index < 200; index += 1) {
      const value = f.password();
      expect(isPlausibleSecret(value, true), value).toBe(true);
    }
    expect(isPlausibleSecret(f.hex(32), false)).toBe(true);
  });

  it('refuses short, spaced, code-like, path-like and low-entropy values', () => {
    expect(isPlausibleSecret('Ab1!x', true)).toBe(false);
    expect(isPlausibleSecret('abc def ghi jkl', true)).toBe(false);
    expect(isPlausibleSecret('config.get(name)', false)).toBe(false);
    expect(isPlausibleSecret('/var/run/secrets/token', true)).toBe(false);
    expect(isPlausibleSecret('abababab12', true)).toBe(false);
    expect(isPlausibleSecret('a'.repeat(2000), true)).toBe(false);
  });
});
