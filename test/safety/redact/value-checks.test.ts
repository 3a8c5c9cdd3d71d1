import { describe, expect, it } from 'vitest';
import { isPlaceholderValue } from '../../../src/safety/redact/is-placeholder-value.js';
import { isPlausibleSecret } from '../../../src/safety/redact/is-plausible-secret.js';
import { edgeKeyboardRun, madeUpRunShare } from '../../../src/safety/redact/made-up-run-share.js';
import { looksLikeWords } from '../../../src/safety/redact/looks-like-words.js';
import { shannonEntropy } from '../../../src/safety/redact/shannon-entropy.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { randomChars } from '../../support/vendor-token-samples.js';

const f = createSecretFactory(4242);
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const LOWER_ALNUM = `${LOWER}0123456789`;
const BASE62 = `${LOWER.toUpperCase()}${LOWER_ALNUM}`;

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

  it('never calls a long random value made up for a typed run or word it holds by chance', () => {
    // Each marker is planted mid-value, between random characters, as chance would put it.
    const markers = ['12345', 'abcdef', 'a1b2c3', 'qwerty', 'xxxxx', 'insert', 'dummy', 'sample'];
    const kept: string[] = [];
    for (let index = 0; index < 400; index += 1) {
      const marker = markers[index % markers.length] ?? '';
      const alphabet = index % 2 === 0 ? LOWER_ALNUM : BASE62;
      const value = f.chars(alphabet, 17) + marker + f.chars(alphabet, 18);
      if (isPlaceholderValue(value)) kept.push(value);
    }
    expect(kept).toEqual([]);
  });

  it('still calls values made mostly of typed runs stand-ins, and the control: runs alone are not enough', () => {
    expect(isPlaceholderValue('sk_test_abcdef1234567890abcdef12')).toBe(true);
    expect(isPlaceholderValue('abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde')).toBe(true);
    expect(isPlaceholderValue(`wJalrXUtnFEMI/K7MDENG/bPxRfiCY${'EXAMPLE'}KEY`)).toBe(true);
    expect(isPlaceholderValue(`${f.chars(BASE62, 30)}-example`)).toBe(true);
    expect(isPlaceholderValue(f.chars(BASE62, 17) + 'abc' + f.chars(BASE62, 18))).toBe(false);
  });
});

describe('isPlaceholderValue and `fake` (issue 27, trufflehog twilio row)', () => {
  // Fresh on every run, unlike the seeded factory above.
  const fresh = (alphabet: string, length: number): string => randomChars(alphabet, length);
  const HEX = '0123456789abcdef';

  it('takes a value that says it is fake (`fake` twice in lower case, `isfake`) for a stand-in', () => {
    for (let round = 0; round < 50; round += 1) {
      const hex = `SK_${fresh(HEX, 6)}fake${fresh(HEX, 12)}fake${fresh(HEX, 8)}`;
      const phrase = `${fresh(BASE62, 11)}$thisisfake${fresh(BASE62, 10)}`;
      expect(isPlaceholderValue(hex), hex).toBe(true);
      expect(isPlaceholderValue(phrase), phrase).toBe(true);
    }
  });

  it('leaves a shouted FAKE in mixed case, and a lone lower-case one among random letters, secrets', () => {
    // Scanners' own tests shout FAKE into a real-shaped key they still expect found. Judged against
    // the same value with the word's letters drawn at random, so the other checks' rare refusals of
    // random values (a keyboard run at an edge) do not count.
    const flipped: string[] = [];
    for (let round = 0; round < 200; round += 1) {
      const [a, b, d] = [fresh(BASE62, 9), fresh(BASE62, 8), fresh(BASE62, 14)];
      // Letters that end in `is` or `isa` make the value say it is fake (`…isfake…`), which marks a
      // stand-in by design: one draw in 3,800, so they are drawn again.
      let c = fresh(BASE62, 14);
      while (/isa?$/.test(c)) c = fresh(BASE62, 14);
      for (const [marked, plain] of [
        [`sk_${a}FAKE${b}`, `sk_${a}${fresh(LOWER.toUpperCase(), 4)}${b}`],
        [`${c}fake${d}`, `${c}${fresh(LOWER, 4)}${d}`],
      ] as const) {
        if (isPlaceholderValue(marked) && !isPlaceholderValue(plain)) flipped.push(marked);
      }
    }
    expect(flipped).toEqual([]);
  });
});

describe('isPlaceholderValue and a stand-in word in mixed case inside a short value', () => {
  it('leaves a short random value that spells a stand-in word in mixed case a secret (fresh)', () => {
    // `nTFAkE_qfuiRv@x`: random letters spell `fake_` or `dummy` in mixed case about once in 100,000
    // short values; people write a stand-in word in one case (`my_fake_pw1`).
    const mixed = (word: string): string => {
      for (;;) {
        const letters = Array.from(word, (char) =>
          Math.random() < 0.5 ? char.toUpperCase() : char.toLowerCase(),
        ).join('');
        const isOneCase =
          letters === letters.toLowerCase() ||
          letters === letters.toUpperCase() ||
          letters === letters.charAt(0).toUpperCase() + letters.slice(1).toLowerCase();
        if (!isOneCase) return letters;
      }
    };
    for (const word of ['fake_', 'dummy', 'sample', 'insert', 'replace']) {
      for (let round = 0; round < 20; round += 1) {
        const value = `${randomChars(BASE62, 2)}${mixed(word)}${randomChars(BASE62, 6)}@x`;
        expect(isPlaceholderValue(value), value).toBe(false);
      }
      expect(isPlaceholderValue(`my_${word}pw1`), word).toBe(true);
    }
  });
});

describe('madeUpRunShare', () => {
  it('is high for counted, repeated and keyboard runs and low for random values', () => {
    expect(madeUpRunShare('abc123xyz')).toBe(1);
    expect(madeUpRunShare('a1b2c3d4')).toBe(1);
    expect(madeUpRunShare('qwertyuiop')).toBe(1);
    expect(madeUpRunShare('zyx987')).toBe(1);
    expect(madeUpRunShare('xxxxxxxx')).toBe(1);
    for (let index = 0; index < 200; index += 1) {
      expect(madeUpRunShare(f.hex(40))).toBeLessThan(0.5);
      expect(madeUpRunShare(f.chars(BASE62, 32))).toBeLessThan(0.5);
    }
  });
});

describe('edgeKeyboardRun', () => {
  it('counts keys along a letter row at either end, in one case as people type them', () => {
    expect(edgeKeyboardRun('qwert7Hx2')).toBe(5);
    expect(edgeKeyboardRun('QWERTY7Hx2')).toBe(6);
    expect(edgeKeyboardRun('Qwerty7Hx2')).toBe(6);
    expect(edgeKeyboardRun('7Hx2zxcvb')).toBe(5);
    // Random letters spell a row in mixed case as often as in one: the change of case ends it.
    expect(edgeKeyboardRun('tyUIoFyr88M0qJYrWPjM9dfLob1DsBUdMHdcJeBqg')).toBe(2);
    expect(edgeKeyboardRun('qwERTy7Hx2')).toBe(2);
  });

  it('marks a stand-in from five keys with both cases in the value, from six with one case', () => {
    // The public corpus row a scanner's test made up (`zxcvb`, then `12345`).
    expect(isPlaceholderValue('zxcvbr12345iugt67s7a7sa0akhsXz820')).toBe(true);
    const lowerTail = randomChars('abcdefghijklmnopqrstuvwxyz0123456789', 24);
    expect(isPlaceholderValue(`zxcvbn${lowerTail}`)).toBe(true);
    expect(isPlaceholderValue(`zxcvbm${lowerTail}`)).toBe(false);
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

  it('reads almost no random letter run as words, in any case', () => {
    // Before the letter-triple check a third of random lower-case runs of 16 read as words.
    for (const alphabet of [LOWER, LOWER.toUpperCase(), LOWER + LOWER.toUpperCase()]) {
      const words: string[] = [];
      for (let index = 0; index < 700; index += 1) {
        const value = f.chars(alphabet, 20);
        if (looksLikeWords(value)) words.push(value);
      }
      // About one in 20,000 passes; three in 700 would be a regression.
      expect(words.length, words.join(' ')).toBeLessThan(3);
    }
  });

  it.each([
    'readablestreamreader',
    'onDisjunctionEnter',
    'XMLHttpRequestEventTarget',
    'CONNECTION_STRING_SETTINGS',
    'internationalization',
  ])('%s (a long identifier) still reads as words', (value) => {
    expect(looksLikeWords(value)).toBe(true);
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
