import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { isPlaceholderValue } from '../../../src/safety/redact/is-placeholder-value.js';
import { isPlausibleSecret } from '../../../src/safety/redact/is-plausible-secret.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import {
  edgeKeyboardRun,
  longestCountingRun,
} from '../../../src/safety/redact/made-up-run-share.js';
import { isRepetitive } from '../../../src/safety/redact/shannon-entropy.js';
import { drawVendorTokenSamples } from '../../support/vendor-token-samples.js';

// A heuristic that calls a value "made up" must never fire on a long random one. Each population
// is drawn afresh from the system's random source on every run (2,000 values; the bench
// `test/bench/redaction-population.mjs` draws 20,000 of every family and context).
const PER_POPULATION = 2_000;
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
let values = 0;
afterAll(() => console.log(`random populations: ${values} fresh values`));

function draw(alphabet: string, length: number): string {
  let out = '';
  for (let index = 0; index < length; index += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** The values of a fresh population for which `fires` holds. */
function firing(make: () => string, fires: (value: string) => boolean): string[] {
  const fired: string[] = [];
  for (let index = 0; index < PER_POPULATION; index += 1) {
    const value = make();
    values += 1;
    if (fires(value)) fired.push(value);
  }
  return fired;
}

describe('no "made up" heuristic fires on long random values', () => {
  it.each([
    ['12345', HEX, 40],
    ['abcdef', HEX, 40],
    ['a1b2c3', HEX, 40],
    ['1a2b3c', `${LOWER}${DIGITS}`, 32],
    ['qwerty', ALNUM, 32],
    ['aBcDeF', `${ALNUM}_-`, 43],
  ] as const)('a typed run (%s) planted inside a random value', (run, alphabet, length) => {
    // The run is planted as it stands, inside: when chance continues it (`aBcDeF` then `gH`, or
    // `qwerty` then `u` as the last character), the value holds a longer run or one that closes
    // it, each a case of its own (a counting run of eight, a keyboard row at an edge, is typed).
    const make = (): string => {
      for (;;) {
        const value = draw(alphabet, length);
        const at = 1 + randomInt(length - run.length - 1);
        const planted = value.slice(0, at) + run + value.slice(at + run.length);
        if (longestCountingRun(planted) < 8 && edgeKeyboardRun(planted) < 5) return planted;
      }
    };
    expect(firing(make, isPlaceholderValue)).toEqual([]);
  });

  it('a stand-in word spelled in mixed case at either end of a random value', () => {
    // Random letters spell `dumMY` or `SaMPle` now and then (one URL-safe value in about a million
    // ends so); a person writes the word in one case.
    const words = ['dummy', 'sample', 'example', 'insert', 'replace', 'redacted'];
    const mixed = (word: string): string => {
      for (;;) {
        const spelled = [...word].map((c) => (randomInt(2) === 0 ? c : c.toUpperCase())).join('');
        const isOneCase =
          spelled === word ||
          spelled === word.toUpperCase() ||
          spelled === word.charAt(0).toUpperCase() + word.slice(1);
        if (!isOneCase) return spelled;
      }
    };
    const make = (): string => {
      const word = mixed(words[randomInt(words.length)] ?? 'dummy');
      const rest = draw(`${ALNUM}_-`, 43 - word.length);
      return randomInt(2) === 0 ? rest + word : word + rest;
    };
    const refused = (value: string): boolean =>
      !isPlausibleSecret(value, true) || !isPlausibleSecret(value, false);
    expect(firing(make, refused)).toEqual([]);
    // The random value that showed it, and the stand-ins that must still read as such.
    for (const random of [
      'yfi5MUzJrhLx8GgzNM9Hhvmm08UDTXrD9MM384dumMY',
      'At-wukPrBxsf1-FMVEDUOX593-oqyOebwuFReDAcTEd',
      '1kD1X0VonRlK5VrXjJJTXxXhFAKE_PifrDM5mDVSbAu',
    ]) {
      expect(isPlausibleSecret(random, true), random).toBe(true);
    }
    for (const standIn of ['dummy', 'my-DUMMY-key', 'Example-Key-123', 'abc_sample', 'REDACTED']) {
      expect(isPlaceholderValue(standIn), standIn).toBe(true);
    }
  });

  it.each([
    ['hex', HEX, 16],
    ['base32', `${UPPER}234567`, 16],
    ['letters and digits', ALNUM, 12],
  ] as const)('the repetition check, on random %s of %i', (_name, alphabet, length) => {
    expect(firing(() => draw(alphabet, length), isRepetitive)).toEqual([]);
  });

  // Lower-case letters alone are judged by how English they read: a random run of 24 reads as words
  // (or spells `dummy` inside) about once in 110,000 draws (measured on 1,000,000), so one firing
  // in 2,000 is allowed there and two fail (about one run in 6,000 by chance). Every other
  // population fired never in 300,000 draws, and none is allowed.
  it.each([
    ['letters and digits', ALNUM, 32, 0],
    ['lower case and digits', `${LOWER}${DIGITS}`, 32, 0],
    ['hex', HEX, 40, 0],
    ['lower case', LOWER, 24, 1],
    ['URL-safe base64', `${ALNUM}_-`, 43, 0],
    ['base64', `${ALNUM}+/`, 88, 0],
    ['hex', HEX, 24, 0],
  ] as const)(
    'the generic value checks, on random %s (alphabet %s) of %i',
    (_name, alphabet, length, allowed) => {
      // Quoted, and unquoted as YAML and .env files write values.
      const refused = (value: string): boolean =>
        !isPlausibleSecret(value, true) || !isPlausibleSecret(value, false);
      // Digits alone are a number, which the generic rule leaves by design (ids, dates), not a
      // "made up" judgement: about one random 24-character hex value in 75,000 has no letter.
      const make = (): string => {
        for (;;) {
          const value = draw(alphabet, length);
          if (!/^\d+$/.test(value)) return value;
        }
      };
      const fired = firing(make, refused);
      expect(fired.length, fired.join(' ')).toBeLessThanOrEqual(allowed);
    },
  );

  it('every vendor token family, fresh, alone on a line and glued to a word before it', () => {
    const kept: string[] = [];
    for (let round = 0; round < PER_POPULATION / 50; round += 1) {
      for (const { rule, value } of drawVendorTokenSamples()) {
        values += 1;
        for (const text of [`${value}\n`, `token = "X${value}"\n`]) {
          if (createRedactor().redact(text).text.includes(value)) kept.push(`${rule} ${text}`);
        }
      }
    }
    expect(kept).toEqual([]);
  });
});
