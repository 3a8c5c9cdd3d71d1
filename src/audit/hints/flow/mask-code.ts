import { Buffer } from 'node:buffer';
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
  /** Quotes whose strings span lines (PHP's and Ruby's `"` and `'`); a backtick's always do. */
  multilineQuotes?: string;
  /** Java: `"""` opens a text block that spans lines. */
  hasTextBlocks?: boolean;
  /** Ruby: `?x` character literals and `%w[…]`, `%q(…)` and the other percent literals. */
  hasRubyLiterals?: boolean;
}

/** How a string literal embeds code: `${x}`, `#{x}`, PHP's `$x` and `{$x}`, Kotlin's `$x` and `${x}`, Python's `{x}`. */
export type Interpolation = 'dollar-brace' | 'hash-brace' | 'php' | 'dollar' | 'brace';

const SPACE = 32;
const NEWLINE = 10;
const DOLLAR = 36;

/**
 * The text with comments and the contents of string literals turned into spaces, quotes and
 * interpolated code kept, at the same offsets: a flow parser can then count brackets and find
 * names without reading inside strings. Unterminated strings end at the end of their line. When
 * `comments` is given, each comment's start and end offsets are appended to it.
 */
export function maskCode(text: string, syntax: MaskSyntax, comments?: number[]): string {
  // The text as UTF-16 code units, copied natively; masked in place and read back the same way.
  const buffer = Buffer.allocUnsafeSlow(text.length * 2);
  buffer.write(text, 'utf16le');
  const out = new Uint16Array(buffer.buffer, buffer.byteOffset, text.length);
  const masker = new Masker(text, out, syntax, comments);
  if (syntax.hasCodeTags) masker.maskOutsideCodeTags();
  else masker.maskCode(0, text.length, -1);
  return buffer.toString('utf16le');
}

class Masker {
  // Which characters may start a string or a comment: every other character is copied as it is.
  private readonly isQuote = new Uint8Array(128);
  private readonly mayOpenComment = new Uint8Array(128);
  // The next character worth a look: a quote, a comment or regex start, a brace, a string prefix.
  private readonly interesting: RegExp;
  // Whether the code being masked is a Python f-string's replacement field.
  private inBraceField = false;

  constructor(
    private readonly text: string,
    private readonly out: Uint16Array,
    private readonly syntax: MaskSyntax,
    // When given, receives each comment as a start and end offset, in order.
    private readonly comments?: number[],
  ) {
    for (const quote of syntax.quotes) this.isQuote[quote.charCodeAt(0)] = 1;
    for (const marker of syntax.lineComments) this.mayOpenComment[marker.charCodeAt(0)] = 1;
    if (syntax.hasBlockComments) this.mayOpenComment[47] = 1;
    const starts = new Set([
      ...syntax.quotes,
      ...syntax.lineComments.map((m) => m[0] ?? ''),
      '{',
      '}',
    ]);
    if (syntax.hasBlockComments || syntax.hasRegexLiterals) starts.add('/');
    if (syntax.hasRubyLiterals === true) {
      starts.add('?');
      starts.add('%');
    }
    if (syntax.hasCodeTags) starts.add('<');
    if (syntax.hasStringPrefixes) starts.add(':');
    const set = [...starts].map((c) => `\\${c}`).join('');
    const prefixes = syntax.hasStringPrefixes ? String.raw`|[rRbBuUfF]{1,2}(?=["'])` : '';
    this.interesting = new RegExp(`[${set}]${prefixes}`, 'g');
  }

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
    let at = start;
    const interesting = this.interesting;
    while (at < end) {
      interesting.lastIndex = at;
      const next = interesting.exec(text);
      if (next === null || next.index >= end) return end;
      at = next.index;
      const code = text.charCodeAt(at);
      if (code === 123) depth++;
      else if (code === 125) {
        if (depth === 0 && closer === 125) return at;
        depth--;
      }
      // Inside a Python f-string's braces `#` starts no comment (`f"{n:#x}"` is a format spec).
      const comment =
        code < 128 && this.mayOpenComment[code] === 1 && !(this.inBraceField && code === 35)
          ? this.commentLength(at)
          : 0;
      if (comment > 0) {
        this.comments?.push(at, at + comment);
        this.blank(at, at + comment);
        at += comment;
        continue;
      }
      // A Python f-string field's format spec (`{n:'>8}`, `{n:#x}`) is text up to the field's `}`.
      if (this.inBraceField && code === 58 && depth === 0 && text.charCodeAt(at + 1) !== 61) {
        let nested = 0;
        let cursor = at + 1;
        for (; cursor < end; cursor++) {
          const next = text.charCodeAt(cursor);
          if (next === NEWLINE) break;
          if (next === 123) nested++;
          else if (next === 125 && nested-- === 0) break;
        }
        this.blank(at + 1, cursor);
        at = cursor;
        continue;
      }
      if (syntax.hasRegexLiterals && code === 47 && isRegexStart(text, at, start)) {
        const close = regexEnd(text, at);
        if (close > at) {
          this.blank(at + 1, close);
          at = close + 1;
          continue;
        }
      }
      if (syntax.hasCodeTags && code === 60 && text.startsWith('<<<', at)) {
        const heredocEnd = this.heredocEnd(at, end);
        if (heredocEnd > 0) {
          at = heredocEnd;
          continue;
        }
      }
      if (syntax.hasRubyLiterals === true && (code === 63 || code === 37)) {
        const literalEnd = this.rubyLiteralEnd(at, end);
        if (literalEnd > 0) {
          at = literalEnd;
          continue;
        }
      }
      const prefix =
        syntax.hasStringPrefixes && code !== 34 && code !== 39 ? stringPrefixLength(text, at) : 0;
      const quote = text.charCodeAt(at + prefix);
      if (
        quote < 128 &&
        this.isQuote[quote] === 1 &&
        (!isIdentifierPart(text.charCodeAt(at - 1)) || followsKeyword(text, at, start))
      ) {
        at = this.maskString(at, prefix, quote, end);
        continue;
      }
      at++;
    }
    return at;
  }

  private commentLength(at: number): number {
    const text = this.text;
    for (const marker of this.syntax.lineComments) {
      if (!text.startsWith(marker, at)) continue;
      // `#{` is Ruby interpolation and `#[` a PHP attribute, not comments; `//` inside `://` is a URL.
      if (
        marker === '#' &&
        !this.syntax.hasStringPrefixes &&
        (text[at + 1] === '{' || text[at + 1] === '[')
      )
        continue;
      const lineEnd = text.indexOf('\n', at);
      const end = lineEnd === -1 ? text.length : lineEnd;
      // PHP: `?>` ends a line comment and the code with it (`# old ?><?php system($c);` runs).
      if (this.syntax.hasCodeTags) {
        const tag = text.indexOf('?>', at);
        if (tag !== -1 && tag < end) return tag - at;
      }
      return end - at;
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
      (this.syntax.hasStringPrefixes || (this.syntax.hasTextBlocks === true && quote === 34)) &&
      text.charCodeAt(quoteAt + 1) === quote &&
      text.charCodeAt(quoteAt + 2) === quote;
    const width = isTriple ? 3 : 1;
    // A Java text block interpolates nothing (`${` in one is text, whatever Kotlin's raw strings do).
    const kind =
      isTriple && this.syntax.hasTextBlocks === true
        ? undefined
        : this.interpolationOf(quote, text.slice(start, quoteAt));
    // Go raw strings, JS templates, triple-quoted strings and PHP's and Ruby's strings span lines;
    // the rest end at a newline.
    const isMultiline =
      isTriple ||
      quote === 96 ||
      (this.syntax.multilineQuotes?.includes(String.fromCharCode(quote)) ?? false);
    let at = quoteAt + width;
    while (at < end) {
      const code = text.charCodeAt(at);
      if (code === 92 && quote !== 96) {
        // In a Python f-string `\{` still opens an interpolation (`rf"C:\{x}"`).
        const isBraceAfter = kind === 'brace' && text.charCodeAt(at + 1) === 123;
        this.blank(at, Math.min(at + (isBraceAfter ? 1 : 2), end));
        at += isBraceAfter ? 1 : 2;
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

  // PHP's heredoc and nowdoc (`<<<EOT` … `EOT`): the offset after the closing name, or 0.
  private heredocEnd(at: number, end: number): number {
    const text = this.text;
    const head = /^<<<[ \t]*(["']?)([A-Za-z_]\w*)\1\r?\n/.exec(text.slice(at, at + 80));
    const name = head?.[2];
    if (head === null || name === undefined) return 0;
    const body = at + head[0].length;
    const closing = new RegExp(`^[ \\t]*${name}(?![A-Za-z0-9_])`, 'm');
    const match = closing.exec(text.slice(body, end));
    const close = match === null ? end : body + match.index + match[0].length;
    this.blank(body, close);
    return close;
  }

  // Ruby's `?"` (a one-character string) and percent literals (`%w[a # b]`, `%q(…)`): the offset
  // after the literal, or 0 when none starts here (`a ? b : c`, `a % b`).
  private rubyLiteralEnd(at: number, end: number): number {
    const text = this.text;
    const before = previousCode(text, at, 0);
    const startsValue = before === 0 || '(,=[{;|&!*'.includes(String.fromCharCode(before));
    const afterSpace = at === 0 || /\s/.test(text[at - 1] ?? '');
    if (text.charCodeAt(at) === 63) {
      const next = text.charCodeAt(at + 1);
      const isChar =
        (startsValue || afterSpace) &&
        at + 1 < end &&
        next !== SPACE &&
        next !== NEWLINE &&
        next !== 9 &&
        !isIdentifierPart(text.charCodeAt(at + 2));
      if (!isChar) return 0;
      this.blank(at + 1, at + 2);
      return at + 2;
    }
    if (!startsValue && !(afterSpace && !/\s/.test(text[at + 1] ?? ' '))) return 0;
    const head = /^%[qQwWiIrsx]?([([{<|!/^])/.exec(text.slice(at, at + 3));
    const open = head?.[1];
    if (head === null || open === undefined) return 0;
    const close = { '(': ')', '[': ']', '{': '}', '<': '>' }[open] ?? open;
    let depth = 0;
    for (let cursor = at + head[0].length; cursor < end; cursor++) {
      const char = text[cursor];
      if (char === '\\') {
        this.blank(cursor, Math.min(cursor + 2, end));
        cursor++;
        continue;
      }
      if (char === close && depth === 0) return cursor + 1;
      if (open !== close && char === open) depth++;
      else if (open !== close && char === close) depth--;
      if (char !== '\n') this.out[cursor] = SPACE;
    }
    return end;
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
      else if (kind === 'php' && text.startsWith('${', at)) {
        // PHP's older `"${name}"` reads `$name`: kept as ` $name ` at the same offsets.
        const name = /^[A-Za-z_]\w*(?=\})/.exec(text.slice(at + 2, Math.min(end, at + 66)));
        if (name !== null) {
          const close = at + 2 + name[0].length;
          this.out[at] = SPACE;
          this.out[at + 1] = DOLLAR;
          this.out[close] = SPACE;
          return close + 1;
        }
      } else if (text[at] === '$' && /[A-Za-z_]/.test(text[at + 1] ?? '')) {
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
    const wasInBraceField = this.inBraceField;
    this.inBraceField = kind === 'brace';
    const close = this.maskCode(open, end, 125);
    this.inBraceField = wasInBraceField;
    if (close < end) this.out[close] = SPACE;
    return Math.min(close + 1, end);
  }

  private blank(start: number, end: number): void {
    for (let at = start; at < end; at++) {
      if (this.out[at] !== NEWLINE) this.out[at] = SPACE;
    }
  }
}

// The last character before `at` (back to `floor`) that is not white space; 0 when there is none.
function previousCode(text: string, at: number, floor: number): number {
  for (let cursor = at - 1; cursor >= floor; cursor--) {
    const code = text.charCodeAt(cursor);
    if (code !== SPACE && code !== NEWLINE && code !== 9 && code !== 13) return code;
  }
  return 0;
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
  const code = text.charCodeAt(at) | 32;
  // Only r, b, u and f (either case) can start one.
  if (code !== 114 && code !== 98 && code !== 117 && code !== 102) return 0;
  if (isIdentifierPart(text.charCodeAt(at - 1))) return 0;
  let length = 0;
  while (length < 2 && /[rRbBuUfF]/.test(text[at + length] ?? '')) length++;
  const next = text[at + length];
  return length > 0 && (next === '"' || next === "'") ? length : 0;
}

// Words after which a value starts: a string with no space between (`return"x"`, `else'''…'''`,
// `case\`…\``) or a regular expression (`return /x/.test(s)`), not a division.
const KEYWORD_BEFORE_VALUE =
  /(?:^|[^A-Za-z_$.])(?:return|typeof|case|default|yield|await|void|delete|in|of|instanceof|new|throw|else|do|not|and|or|is|if|elif|lambda|echo|print|when|then|unless|until|while|go|defer|assert|raise|except|match|from|with|range|exec)$/;

// Whether the identifier that ends just before `at` is such a keyword.
function followsKeyword(text: string, at: number, floor: number): boolean {
  return KEYWORD_BEFORE_VALUE.test(text.slice(Math.max(floor, at - 11), at));
}

// A `/` starts a regular expression after an operator or an opening bracket, or a keyword above,
// not after a value.
function isRegexStart(text: string, at: number, floor: number): boolean {
  const previous = previousCode(text, at, floor);
  if (previous === 0 || '(,=:[!&|?{};+-*%<>~^'.includes(String.fromCharCode(previous))) return true;
  if (!isIdentifierPart(previous)) return false;
  let end = at - 1;
  while (end > floor && !isIdentifierPart(text.charCodeAt(end))) end--;
  return followsKeyword(text, end + 1, floor);
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
