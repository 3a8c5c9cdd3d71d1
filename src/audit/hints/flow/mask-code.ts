import type { FlowSyntax } from './flow-language.js';

/** How one language writes comments and strings, as far as masking needs to know. */
export interface MaskSyntax {
  family: FlowSyntax;
  lineComments: readonly string[];
  hasBlockComments: boolean;
  /** Quote characters that open a string. */
  quotes: string;
  /** How a string interpolates code, per quote character. */
  interpolation: Readonly<Record<string, Interpolation>>;
  hasRegexLiterals: boolean;
  /** PHP: only the text between `<?php` and `?>` is code. */
  hasCodeTags: boolean;
  /** Python: `f"..."` strings interpolate `{...}`, `"""` strings span lines. */
  hasStringPrefixes: boolean;
}

/** How a string literal embeds code: `${x}`, `#{x}`, PHP's `$x` and `{$x}`, Kotlin's `$x` and `${x}`, Python's `{x}`. */
export type Interpolation = 'dollar-brace' | 'hash-brace' | 'php' | 'dollar' | 'brace';

const SPACE = 32;
const NEWLINE = 10;

/**
 * The text with comments and the contents of string literals turned into spaces, quotes and
 * interpolated code kept, at the same offsets: a flow parser can then count brackets and find
 * names without reading inside strings. Unterminated strings end at the end of their line.
 */
export function maskCode(text: string, syntax: MaskSyntax): string {
  const out = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  const masker = new Masker(text, out, syntax);
  if (syntax.hasCodeTags) masker.maskOutsideCodeTags();
  else masker.maskCode(0, text.length, -1);
  let result = '';
  // Chunked so a large file does not overflow the argument list of fromCharCode.
  for (let at = 0; at < out.length; at += 8192) {
    result += String.fromCharCode(...out.subarray(at, Math.min(out.length, at + 8192)));
  }
  return result;
}

class Masker {
  constructor(
    private readonly text: string,
    private readonly out: Uint16Array,
    private readonly syntax: MaskSyntax,
  ) {}

  maskOutsideCodeTags(): void {
    const text = this.text;
    let at = 0;
    while (at < text.length) {
      const open = text.indexOf('<?', at);
      const codeStart = open === -1 ? text.length : open;
      this.blank(at, codeStart);
      if (open === -1) return;
      const body = text.startsWith('<?php', open)
        ? open + 5
        : text.startsWith('<?=', open)
          ? open + 3
          : open + 2;
      const close = text.indexOf('?>', body);
      const end = close === -1 ? text.length : close;
      this.maskCode(body, end, -1);
      at = close === -1 ? text.length : close + 2;
    }
  }

  /** Masks code from `start` until `end`, or until an unmatched `}` when `closer` is that code; returns where it stopped. */
  maskCode(start: number, end: number, closer: number): number {
    const text = this.text;
    const syntax = this.syntax;
    let depth = 0;
    let previous = 0;
    let at = start;
    while (at < end) {
      const code = text.charCodeAt(at);
      if (code === 123) depth++;
      else if (code === 125) {
        if (depth === 0 && closer === 125) return at;
        depth--;
      }
      const comment = this.commentLength(at);
      if (comment > 0) {
        this.blank(at, at + comment);
        at += comment;
        continue;
      }
      if (syntax.hasRegexLiterals && code === 47 && isRegexStart(previous)) {
        const close = regexEnd(text, at);
        if (close > at) {
          this.blank(at + 1, close);
          at = close + 1;
          previous = 47;
          continue;
        }
      }
      const prefix = syntax.hasStringPrefixes ? stringPrefixLength(text, at) : 0;
      const quote = text.charCodeAt(at + prefix);
      if (
        syntax.quotes.includes(String.fromCharCode(quote)) &&
        !isIdentifierPart(text.charCodeAt(at - 1))
      ) {
        at = this.maskString(at, prefix, quote, end);
        previous = 34;
        continue;
      }
      if (code !== SPACE && code !== NEWLINE && code !== 9 && code !== 13) previous = code;
      at++;
    }
    return at;
  }

  private commentLength(at: number): number {
    const text = this.text;
    for (const marker of this.syntax.lineComments) {
      if (!text.startsWith(marker, at)) continue;
      // `#{` is Ruby interpolation and `#[` a PHP attribute, not comments; `//` inside `://` is a URL.
      if (marker === '#' && (text[at + 1] === '{' || text[at + 1] === '[')) continue;
      const lineEnd = text.indexOf('\n', at);
      return (lineEnd === -1 ? text.length : lineEnd) - at;
    }
    if (this.syntax.hasBlockComments && text.startsWith('/*', at)) {
      const close = text.indexOf('*/', at + 2);
      return (close === -1 ? text.length : close + 2) - at;
    }
    return 0;
  }

  // Returns the offset after the closing quote.
  private maskString(start: number, prefix: number, quote: number, end: number): number {
    const text = this.text;
    const quoteAt = start + prefix;
    const isTriple =
      this.syntax.hasStringPrefixes &&
      text.charCodeAt(quoteAt + 1) === quote &&
      text.charCodeAt(quoteAt + 2) === quote;
    const width = isTriple ? 3 : 1;
    const kind = this.interpolationOf(quote, text.slice(start, quoteAt));
    // Go raw strings, JS templates and triple-quoted strings span lines; the rest end at a newline.
    const isMultiline = isTriple || quote === 96;
    let at = quoteAt + width;
    while (at < end) {
      const code = text.charCodeAt(at);
      if (code === 92 && quote !== 96) {
        this.blank(at, Math.min(at + 2, end));
        at += 2;
        continue;
      }
      if (
        code === quote &&
        (!isTriple || text.startsWith(String.fromCharCode(quote).repeat(3), at))
      ) {
        return at + width;
      }
      if (code === NEWLINE && !isMultiline) return at;
      const kept = kind === undefined ? 0 : this.interpolationAt(at, kind, end);
      if (kept > 0) {
        at = kept;
        continue;
      }
      if (code !== NEWLINE) this.out[at] = SPACE;
      at++;
    }
    return at;
  }

  private interpolationOf(quote: number, prefix: string): Interpolation | undefined {
    if (this.syntax.hasStringPrefixes) {
      return /f/i.test(prefix) ? 'brace' : undefined;
    }
    return this.syntax.interpolation[String.fromCharCode(quote)];
  }

  // When code is interpolated at `at`, masks it as code and returns the offset after it; else 0.
  private interpolationAt(at: number, kind: Interpolation, end: number): number {
    const text = this.text;
    let open = -1;
    if ((kind === 'dollar-brace' || kind === 'dollar') && text.startsWith('${', at)) open = at + 2;
    else if (kind === 'hash-brace' && text.startsWith('#{', at)) open = at + 2;
    else if (kind === 'brace' && text[at] === '{' && text[at + 1] !== '{') open = at + 1;
    else if (kind === 'php' || kind === 'dollar') {
      if (kind === 'php' && text.startsWith('{$', at)) open = at + 1;
      else if (text[at] === '$' && /[A-Za-z_]/.test(text[at + 1] ?? '')) {
        let stop = at + 1;
        while (stop < end && /[\w]/.test(text[stop] ?? '')) stop++;
        // Kotlin's `$name` reads `name`; PHP's `$name` is itself the variable.
        if (kind === 'dollar') this.out[at] = SPACE;
        return stop;
      }
    }
    if (open === -1) {
      if (kind === 'brace' && text.startsWith('{{', at)) {
        this.blank(at, at + 2);
        return at + 2;
      }
      return 0;
    }
    this.blank(at, open);
    const close = this.maskCode(open, end, 125);
    if (close < end) this.out[close] = SPACE;
    return Math.min(close + 1, end);
  }

  private blank(start: number, end: number): void {
    for (let at = start; at < end; at++) {
      if (this.out[at] !== NEWLINE) this.out[at] = SPACE;
    }
  }
}

function isIdentifierPart(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 36
  );
}

// Python string prefixes: r, b, u, f and their pairs, directly before a quote.
function stringPrefixLength(text: string, at: number): number {
  if (isIdentifierPart(text.charCodeAt(at - 1))) return 0;
  let length = 0;
  while (length < 2 && /[rRbBuUfF]/.test(text[at + length] ?? '')) length++;
  const next = text[at + length];
  return length > 0 && (next === '"' || next === "'") ? length : 0;
}

// A `/` starts a regular expression after an operator or an opening bracket, not after a value.
function isRegexStart(previous: number): boolean {
  return previous === 0 || '(,=:[!&|?{};+-*%<>~^'.includes(String.fromCharCode(previous));
}

// The offset of the closing `/` of a regular expression on the same line, or -1.
function regexEnd(text: string, start: number): number {
  let inClass = false;
  for (let at = start + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === NEWLINE) return -1;
    if (code === 92) at++;
    else if (code === 91) inClass = true;
    else if (code === 93) inClass = false;
    else if (code === 47 && !inClass) return at === start + 1 ? -1 : at;
  }
  return -1;
}
