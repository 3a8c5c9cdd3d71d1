import { isRandomToken } from '../define-token-rule.js';
import type { AnchoredRule, ValueRange } from '../redaction-rule.js';
import { VENDOR_CONTEXT_TABLE, type VendorContextRow } from './vendor-context-table.js';

// From the vendor word to the value: the rest of the key name (`adafruit_io_key`), up to three more
// words (`new relic insert key`, `Using adobe KEY`), a closing quote or bracket, then an assignment,
// mapping, comparison or ` - `, and an opening quote or `Bearer `.
const KEY_TO_VALUE = new RegExp(
  [
    String.raw`[\w.-]{0,64}`,
    String.raw`(?:[ \t]+[\w.-]{1,30}){0,3}?`,
    String.raw`\\?["'\`\]]{0,2}[ \t]*`,
    String.raw`(?:=>|:{1,3}=|\?=|\|\|=?|===?|[:=,]|(?<=[ \t])-(?=[ \t]))`,
    String.raw`[ \t]*@?\\?["'\`]?(?:(?:bearer|token|basic)[ \t]+)?`,
  ].join(''),
  'iy',
);
// An element named for the vendor (`<sentryKey>value</sentryKey>`): its text, on its line or the next.
const ELEMENT_TO_TEXT = /[\w.-]{0,64}>[ \t]*(?:\r?\n[ \t]*)?/y;
// The value: up to the next quote, space, separator or bracket.
const VALUE = /[^\s"'`,;)\]}<>\\]{1,256}/y;

/**
 * Whether the keyword hit at `at` is the vendor's name as written in a key (`sumo_key`, `SUMO_KEY`,
 * `mySumoKey`), not letters of other words (`sumObj`, `SetSysctl`, `global`, `consumo`).
 */
function isVendorWordAt(text: string, at: number, length: number): boolean {
  const word = text.slice(at, at + length);
  const isLower = word === word.toLowerCase();
  const isCapitalised = /^[A-Z][^A-Z]*$/.test(word);
  if (!isLower && !isCapitalised && word !== word.toUpperCase()) return false;
  const before = text.charCodeAt(at - 1);
  const isLetterBefore = (before >= 65 && before <= 90) || (before >= 97 && before <= 122);
  // A word starts here, or a capital starts one after lower case (`mySumoKey`).
  return !isLetterBefore || (isCapitalised && before >= 97 && before <= 122);
}

/** Whether the key holding the keyword at `at` is an element name (`<sentryKey>`). */
function opensElement(text: string, at: number): boolean {
  let start = at;
  while (start > 0 && /[\w.-]/.test(text[start - 1] ?? '')) start -= 1;
  return text[start - 1] === '<';
}

/** A rule for one vendor format found by the vendor's name in the key it is assigned to. */
function defineVendorContextRule(row: VendorContextRow): AnchoredRule {
  const shape = new RegExp(`^(?:${row.shape})$`);
  return {
    id: row.id,
    description: row.description,
    keywords: row.keywords,
    scope: 'anchored',
    findAt(text: string, at: number): ValueRange | undefined {
      if (!row.keywords.some((keyword) => isVendorWordAt(text, at, keyword.length)))
        return undefined;
      const connector = opensElement(text, at) ? ELEMENT_TO_TEXT : KEY_TO_VALUE;
      connector.lastIndex = at;
      if (connector.exec(text) === null) return undefined;
      const start = connector.lastIndex;
      VALUE.lastIndex = start;
      const match = VALUE.exec(text);
      if (match === null) return undefined;
      const value = match[0];
      if (!shape.test(value) || !isRandomToken(value)) return undefined;
      return { start, end: start + value.length };
    },
  };
}

/** Every vendor format of the context table. */
export const VENDOR_CONTEXT_RULES: readonly AnchoredRule[] =
  VENDOR_CONTEXT_TABLE.map(defineVendorContextRule);
