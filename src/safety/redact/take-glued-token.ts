import { looksLikeWords, NAME_JUDGED_RUN_CHARS } from './looks-like-words.js';
import type { ValueRange } from './redaction-rule.js';

// Token characters glued after a token, redacted with it; a longer run is a blob, not a token, and
// so is a token glued after a run longer than that.
const MAX_GLUED_TAIL_CHARS = 64;
const GLUED_TAIL = new RegExp(`[A-Za-z0-9_-]{0,${MAX_GLUED_TAIL_CHARS}}`, 'y');
const BLOB_RUN_BEFORE = new RegExp(`[A-Za-z0-9+/_-]{${MAX_GLUED_TAIL_CHARS + 1}}$`);
// A token made of base64 characters only could be a piece of a base64 run, and `+` and `/` are
// joints of one there. Before the token, a run this long says base64 rather than a path (`/v1/`).
const BASE64_TOKEN = /^[A-Za-z0-9+/]+$/;
const MIN_BASE64_RUN_CHARS = 16;
const BASE64_RUN_BEFORE = new RegExp(`[A-Za-z0-9+/]{${MIN_BASE64_RUN_CHARS}}$`);
// Likewise `-` and `_` in URL-safe base64 (`…X8AJ-sk-DN2M…`), when the run before does not read as
// a name (`deploy_config_`, `GITHUB_TOKEN_` before `ghp_`).
const URL_SAFE_TOKEN = /^[A-Za-z0-9_-]+$/;
const URL_SAFE_RUN_BEFORE = /[A-Za-z0-9_-]{1,64}$/;

/**
 * Judges the neighbours of a token whose shape names it (`AKIA…`, `ghp_…`), found at `[start, end)`
 * by a pattern that states the token alone. Glued on one side (`XAKIA…`, `AKIA…X`, a token at a
 * blob's edge) it is still the token, and the glued tail is hidden with it; glued on both sides it
 * is letters in the middle of a longer run (`vipul-<64 hex>`, base64), not a token.
 */
export function takeGluedToken(text: string, start: number, end: number): ValueRange | undefined {
  const token = text.slice(start, end);
  const inBase64 = BASE64_TOKEN.test(token);
  const isGluedBeforeIt =
    isGluedBefore(text, start, inBase64) ||
    (URL_SAFE_TOKEN.test(token) && isInUrlSafeRun(text, start));
  if (!isGluedAfter(text, end, inBase64)) {
    if (!isGluedBeforeIt) return { start, end };
    // Glued after a run longer than any glued tail, it is the end of a blob (`…MruUsk-<chars>`).
    if (BLOB_RUN_BEFORE.test(text.slice(Math.max(0, start - MAX_GLUED_TAIL_CHARS - 1), start)))
      return undefined;
    return isUneven(gluedRunBefore(text, start) + text.slice(start, end))
      ? undefined
      : { start, end };
  }
  if (isGluedBeforeIt) return undefined;
  // The glued tail is judged with the token, never alone: `<token>EXAMPLE` is still the token.
  GLUED_TAIL.lastIndex = end;
  GLUED_TAIL.exec(text);
  const tailEnd = GLUED_TAIL.lastIndex;
  // A run going on past the tail is a blob that opens with the token's letters (`id: sk-<3,000
  // base64url characters>`): no issued token is that long.
  if (/[A-Za-z0-9_-]/.test(text.charAt(tailEnd))) return undefined;
  return isUneven(text.slice(start, tailEnd)) ? undefined : { start, end: tailEnd };
}

// What is glued before a token, as far back as an evenness judgement reads.
const MAX_JUDGED_GLUE_CHARS = 16;

function gluedRunBefore(text: string, start: number): string {
  let from = start;
  while (start - from < MAX_JUDGED_GLUE_CHARS && /[A-Za-z0-9+/_-]/.test(text.charAt(from - 1))) {
    from -= 1;
  }
  return text.slice(from, start);
}

// An issued token is drawn evenly from its alphabet, and so is what an attacker glues to it: no
// character fills a third of 24 or more (of a random hex token of 32, about one in 20,000 draws).
// The edge of a blob of mostly zero bytes (`…AAAAEAAAAAAO8AiACjAAAAAAAAsg`) does.
const MIN_EVEN_CHARS = 24;
const MAX_CHARACTER_SHARE = 1 / 3;

// Hex of one case and digest length, glued to a token whose letters happen to be hex (`ACCA…` in
// an upper-case UUID without dashes), is a digest: an issued token is drawn from a wider alphabet
// (the 16 characters after an AWS key id's `ACCA` are all hex about once in seven million).
const MIN_HEX_DIGEST_CHARS = 32;

function isUneven(glued: string): boolean {
  if (glued.length >= MIN_HEX_DIGEST_CHARS && /^(?:[0-9A-F]+|[0-9a-f]+)$/.test(glued)) return true;
  if (glued.length < MIN_EVEN_CHARS) return false;
  const counts = new Map<number, number>();
  let most = 0;
  for (let index = 0; index < glued.length; index += 1) {
    const code = glued.charCodeAt(index);
    const count = (counts.get(code) ?? 0) + 1;
    counts.set(code, count);
    if (count > most) most = count;
  }
  return most >= glued.length * MAX_CHARACTER_SHARE;
}

// A letter or digit before the token glues it to a word. `=`, `_`, `-` and `/` are an assignment,
// a name or a path (`/v1/ghp_…/revoke`), unless a long base64 run goes on before a `+` or `/`.
function isGluedBefore(text: string, start: number, inBase64: boolean): boolean {
  const code = text.charCodeAt(start - 1);
  if (isWordCharacter(code)) return true;
  if (!inBase64 || (code !== PLUS && code !== SLASH)) return false;
  return BASE64_RUN_BEFORE.test(
    text.slice(Math.max(0, start - 1 - MIN_BASE64_RUN_CHARS), start - 1),
  );
}

/** Whether a `-` or `_` before the token joins it to a URL-safe run that is not a name. */
function isInUrlSafeRun(text: string, start: number): boolean {
  const code = text.charCodeAt(start - 1);
  if (code !== HYPHEN && code !== UNDERSCORE) return false;
  const before = URL_SAFE_RUN_BEFORE.exec(text.slice(Math.max(0, start - 65), start - 1))?.[0];
  return before !== undefined && !looksLikeWords(before, NAME_JUDGED_RUN_CHARS);
}

// After it: a token character, or for a base64-like token, base64 going on (`+`, `/`) or padding.
function isGluedAfter(text: string, end: number, inBase64: boolean): boolean {
  const code = text.charCodeAt(end);
  if (isWordCharacter(code) || code === UNDERSCORE || code === HYPHEN) return true;
  if (!inBase64) return false;
  if (code === EQUALS) return true;
  const next = text.charCodeAt(end + 1);
  return (
    (code === PLUS || code === SLASH) && (isWordCharacter(next) || next === PLUS || next === SLASH)
  );
}

const PLUS = 43;
const HYPHEN = 45;
const SLASH = 47;
const EQUALS = 61;
const UNDERSCORE = 95;

/** A letter or digit. */
export function isWordCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}
