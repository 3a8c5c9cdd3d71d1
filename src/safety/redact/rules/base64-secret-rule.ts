import { Buffer } from 'node:buffer';
import { buildCanarySecrets } from '../canary-secrets.js';
import { compileRuleSet, type CompiledRuleSet } from '../compile-rule-set.js';
import type { AnchoredRule, RedactionRule, ValueRange } from '../redaction-rule.js';

/** A keyword of a self-naming rule as base64 writes it, at one of the three byte alignments. */
interface EncodedKeyword {
  /** The base64 characters that every encoding of the keyword at this alignment holds. */
  text: string;
  /** How many characters after a 4-character group boundary `text` starts. */
  offset: number;
}

// Encoded keywords of fewer characters hit too often inside unrelated base64 and hex.
const MIN_ENCODED_KEYWORD_CHARS = 3;
// The scanner looks for this much of each (a smaller automaton, built at every start); a hit is
// checked against the whole encoded keyword.
const MAX_SCANNED_CHARS = 4;
// A 4096-bit RSA key in PEM is about 3.3 KB; its base64 about 4.4 KB. Longer runs are not read.
const MAX_RUN_CHARS = 16 * 1024;
// A wrapped block goes on over lines of one width (`base64` wraps at 76, PEM at 64).
const MIN_WRAP_WIDTH = 60;
const WRAPPED_LINE = /\r?\n[ \t]*([A-Za-z0-9+/_-]+={0,2})[ \t]*(?=\r?\n|$)/y;

/**
 * Base64 that decodes to a private key block or a self-identifying token (`client-key-data:` in a
 * kubeconfig, a Helm value, a CI variable, a token inside an encoded config): the run, where it
 * stands. Every keyword of the inner rules is looked for as base64 writes it at each of the three
 * byte alignments, so a token is found wherever it sits in the decoded bytes, and with characters
 * glued to the run on either side. `innerRules` are the rules whose secret names itself.
 */
export function defineBase64SecretRule(innerRules: readonly RedactionRule[]): AnchoredRule {
  const encodings = encodeKeywords(innerRules);
  // Compiled at the first encoded keyword seen, so start-up (and every scan worker) does not pay.
  let inner: CompiledRuleSet | undefined;
  // Hits come in text order, and a long run holds several: each reading of a run is made once.
  let judged: { text: string; from: number; end: number; holds: boolean } | undefined;
  return {
    id: 'base64-encoded-secret',
    description: 'Base64 that decodes to a private key block or a self-identifying token',
    keywords: [
      ...new Set(
        [...encodings.values()]
          .flat()
          .map((encoded) => encoded.text.slice(0, MAX_SCANNED_CHARS).toLowerCase()),
      ),
    ],
    namesItself: true,
    scope: 'anchored',
    findAt(text: string, at: number): ValueRange | undefined {
      // Most hits differ in case only (`try` for `TRy`): the exact characters are the key.
      const here = encodings
        .get(text.slice(at, at + MIN_ENCODED_KEYWORD_CHARS))
        ?.filter((encoded) => text.startsWith(encoded.text, at));
      if (here === undefined || here.length === 0) return undefined;
      const start = lineRunStart(text, at);
      const end = start === undefined ? undefined : runEnd(text, start);
      if (start === undefined || end === undefined) return undefined;
      inner ??= compileRuleSet(innerRules);
      for (const offset of new Set(here.map((encoded) => encoded.offset))) {
        // Read from the first group boundary of the run that agrees with the keyword's alignment.
        const from = start + ((((at - offset - start) % 4) + 4) % 4);
        if (judged?.from !== from || judged.end !== end || judged.text !== text) {
          const data = text.slice(from, end).replace(/\s+/g, '');
          const holds = holdsSecret(Buffer.from(data, 'base64').toString('latin1'), inner);
          judged = { text, from, end, holds };
        }
        // Up to three characters glued before the data stay: they encode nothing of it.
        if (judged.holds) return { start: from, end };
      }
      return undefined;
    },
  };
}

/**
 * Every keyword of the rules, in the case a token writes it, encoded at each alignment; by their
 * first characters.
 */
function encodeKeywords(rules: readonly RedactionRule[]): Map<string, EncodedKeyword[]> {
  const canaries = buildCanarySecrets();
  const written = new Set<string>();
  for (const rule of rules) {
    const values = canaries.filter((canary) => canary.rule === rule.id).map((c) => c.value);
    for (const form of writtenKeywords(rule.keywords, values)) written.add(form);
  }
  const byKeyword = new Map<string, EncodedKeyword[]>();
  for (const form of written) {
    for (let alignment = 0; alignment < 3; alignment += 1) {
      for (const encoded of encodeAt(form, alignment)) {
        // The URL-safe alphabet writes `-` and `_` for `+` and `/`.
        const urlSafe = encoded.text.replaceAll('+', '-').replaceAll('/', '_');
        for (const text of new Set([encoded.text, urlSafe])) {
          const key = text.slice(0, MIN_ENCODED_KEYWORD_CHARS);
          const list = byKeyword.get(key) ?? [];
          if (!list.some((other) => other.text === text && other.offset === encoded.offset)) {
            list.push({ text, offset: encoded.offset });
          }
          byKeyword.set(key, list);
        }
      }
    }
  }
  return byKeyword;
}

/**
 * A rule's keywords as its tokens write them: as in its canary, else in the case the canary writes
 * the rule's other keywords in (`ASIA` as `AKIA`, `gho_` as `ghp_`), else in both cases.
 */
function writtenKeywords(keywords: readonly string[], values: readonly string[]): string[] {
  const found = new Map<string, string>();
  for (const keyword of keywords) {
    for (const value of values) {
      const index = value.toLowerCase().indexOf(keyword);
      if (index !== -1) found.set(keyword, value.slice(index, index + keyword.length));
    }
  }
  const cases = [...found.values()];
  const isUpper = cases.length > 0 && cases.every((form) => form === form.toUpperCase());
  const isLower = cases.length > 0 && cases.every((form) => form === form.toLowerCase());
  return keywords.flatMap((keyword) => {
    const form = found.get(keyword);
    if (form !== undefined) return [form];
    if (isUpper) return [keyword.toUpperCase()];
    return isLower ? [keyword] : [keyword, keyword.toUpperCase()];
  });
}

// What follows a keyword in every token: its body, of letters, digits, `_` and `-`.
const TOKEN_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
// An encoding this short is spelled on with each character a token's body can go on with: three
// letters (`TRy` for `SG.`) are common in code, four (`TRy4`, `TRy5`) are not.
const MIN_SCANNED_CHARS = 4;

/**
 * The base64 characters of `keyword` after `alignment` bytes of a group that hold its bits alone,
 * or, when they are few, those and the next character for each token character that can follow.
 */
function encodeAt(keyword: string, alignment: number): EncodedKeyword[] {
  const first = Math.ceil((8 * alignment) / 6);
  const offset = first % 4;
  const whole = encodeBits(keyword, alignment, first);
  if (whole.length < MIN_ENCODED_KEYWORD_CHARS) return [];
  if (whole.length >= MIN_SCANNED_CHARS) return [{ text: whole, offset }];
  const spelled = new Set<string>();
  for (const next of TOKEN_CHARACTERS) {
    spelled.add(encodeBits(keyword + next, alignment, first).slice(0, whole.length + 1));
  }
  return [...spelled].map((text) => ({ text, offset }));
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The base64 characters, from the `first`, whose six bits all come from `bytes` written after
 * `alignment` bytes of a 3-byte group: what every encoding of them there holds.
 */
function encodeBits(bytes: string, alignment: number, first: number): string {
  const end = 8 * (alignment + bytes.length);
  let out = '';
  for (let char = first; 6 * char + 6 <= end; char += 1) {
    let value = 0;
    for (let bit = 6 * char; bit < 6 * char + 6; bit += 1) {
      const byte = bytes.charCodeAt(Math.floor(bit / 8) - alignment);
      value = (value << 1) | ((byte >> (7 - (bit % 8))) & 1);
    }
    out += BASE64_ALPHABET[value] ?? '';
  }
  return out;
}

/** Where the base64 run around `at` starts on its line, or undefined past MAX_RUN_CHARS. */
function lineRunStart(text: string, at: number): number | undefined {
  let start = at;
  const floor = Math.max(0, at - MAX_RUN_CHARS);
  while (start > floor && isBase64Character(text.charCodeAt(start - 1))) start -= 1;
  return start === floor && floor > 0 ? undefined : start;
}

/** A character of the standard or URL-safe base64 alphabet. */
function isBase64Character(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 43 || // +
    code === 47 || // /
    code === 95 || // _
    code === 45 // -
  );
}

/** Where the base64 run from `start` ends, over the lines of a wrapped block. */
function runEnd(text: string, start: number): number | undefined {
  let end = start;
  const ceiling = Math.min(text.length, start + MAX_RUN_CHARS + 1);
  while (end < ceiling && isBase64Character(text.charCodeAt(end))) end += 1;
  if (end - start > MAX_RUN_CHARS) return undefined;
  const width = end - start;
  while (text.charAt(end) === '=' && end - start < width + 2) end += 1;
  let last = text.slice(start, end);
  while (width >= MIN_WRAP_WIDTH && last.length === width && !last.endsWith('=')) {
    WRAPPED_LINE.lastIndex = end;
    const line = WRAPPED_LINE.exec(text);
    if (line === null || (line[1] ?? '').length > width) break;
    last = line[1] ?? '';
    end = WRAPPED_LINE.lastIndex;
    if (end - start > MAX_RUN_CHARS) return undefined;
  }
  return end;
}

/** Whether a self-naming rule finds its secret in the decoded text. */
function holdsSecret(decoded: string, inner: CompiledRuleSet): boolean {
  let found = false;
  inner.keywordScanner.forEachHit(decoded, (at, keyword) => {
    if (found) return;
    for (const { rule } of inner.rulesByKeyword[keyword] ?? []) {
      if (rule.scope === 'anchored' && rule.findAt(decoded, at) !== undefined) found = true;
    }
  });
  return found;
}
