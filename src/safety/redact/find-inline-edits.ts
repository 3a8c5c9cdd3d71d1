/** A change the scan view makes to the original: `length` characters at `at` read as `replacement`. */
export interface ViewEdit {
  at: number;
  length: number;
  replacement: string;
  /**
   * Whether the edit is a guess another reading may refute: two literals side by side on one line
   * are one string in Python and C, but two arguments in a shell command (`curl -u "$A" "$URL"`),
   * and two on lines of their own are a value and the next key in YAML (`p: "…"` then `'k': …`);
   * `%64` is `d` in a URL, but a `%` and the first characters of a password in `smbclient -U
   * user%64Fb...`.
   */
  isSoft?: boolean;
}

// Characters an escape may stand for in the view: what tokens and URLs are made of. A quote,
// backslash or blank decoded would change how the line parses, so those escapes stay as written.
const DECODABLE = /^[A-Za-z0-9_.~+/=:@-]$/;
// Invisible characters: taken out, written as themselves or as escapes.
const INVISIBLE = /^[\u00ad\u200b-\u200d\u2060\ufeff]$/;
const TOKEN_CHAR = /^[\w-]$/;

// A literal's text just before its closing quote, and just after the next one's opening quote: a
// token is split inside, so a whole literal (`"."`, `" "`, `"$URL"`) is no piece of one.
const PIECE_BEFORE = String.raw`(?<=[^\s(,=[{:;"'${'`'}$].)`;
const PIECE_AFTER = String.raw`(?=[^\s),;\]}:"'${'`'}$])`;
const QUOTE = String.raw`["'${'`'}]`;
// A backslash may continue the line first (Python, C macros: `"ghp_ab" \` then `"cd…"`).
const LINE_BREAKS = String.raw`(?:[ \t]*(?:\\?\r?\n[ \t]*)+)`;
// String prefixes of the next literal: Python's f, b, r, u; C's L, u8; Objective-C's @.
const PREFIX = String.raw`(?:[fFbBrRuU]{1,2}|u8|L|@)?`;

// Everything a line can hold that hides a secret from the rules, read in one pass (every
// alternative opens with a fixed character, so the engine skips quickly to candidates).
const INLINE = new RegExp(
  [
    // Terminal escapes: CSI (`ESC [ ... final` or the 8-bit CSI), OSC (`ESC ] ... BEL` or
    // `ESC ] ... ESC \`), and the two-character escapes.
    String.raw`(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]`,
    // Invisible characters between two token characters (an emoji's joiner stays).
    String.raw`[\u00ad\u200b-\u200d\u2060\ufeff](?<=[\w-].)(?=[\w-])`,
    // The same quote closed and opened around `+`, `.`, `..`, `||` or `&` (JavaScript, Java, Go,
    // PHP, Lua, SQL, VB), a line break allowed on either side of the operator.
    String.raw`(?<op>${QUOTE})${PIECE_BEFORE.replace('.)', '\\k<op>)')}(?:[ \t]*(?:\r?\n[ \t]*)?(?:\+|\|\||\.\.?|&)[ \t]*(?:\r?\n[ \t]*)?)\k<op>${PIECE_AFTER}`,
    // Literals side by side across line breaks (Python, C, C++: `"ghp_abc"\n  "def"`): a soft joint,
    // since a quoted value ending one line and a quoted key opening the next are two (YAML, TOML).
    String.raw`${QUOTE}${PIECE_BEFORE}(?<lines>${LINE_BREAKS})${PREFIX}${QUOTE}${PIECE_AFTER}`,
    // Literals side by side on one line (`"ghp_abc" "def"`): a soft joint.
    String.raw`${QUOTE}${PIECE_BEFORE}(?<soft>[ \t]+)${PREFIX}${QUOTE}${PIECE_AFTER}`,
    // `"abc".concat("def")`.
    String.raw`${QUOTE}[ \t]*\.[ \t]*concat[ \t]*\([ \t]*${QUOTE}`,
    // A literal inside a template's interpolation (`${"abc"}`) or an f-string's (`{'abc'}`).
    String.raw`\$\{[ \t]*(?<tq>${QUOTE})(?<template>[^"'${'`'}\\\n{}]{0,256})\k<tq>[ \t]*\}`,
    String.raw`\{(?<=[\w"'}-]\{)[ \t]*(?<fq>["'])(?<fstring>[^"'${'`'}\\\n{}]{0,256})\k<fq>[ \t]*\}`,
    // Escapes of ASCII and invisible characters: `\u005f`, `\u{5f}`, `\x5f`, `%5F` (the escapes of
    // accented letters, which fill minified code, are not matched).
    String.raw`\\(?<!\\\\)u(?:(?<u4>00[2-7][0-9A-Fa-f]|00[aA][dD]|20(?:0[b-dB-D]|60)|[fF][eE][fF][fF])|\{(?<ubraced>[0-9A-Fa-f]{1,6})\})`,
    String.raw`\\(?<!\\\\)x(?<hex>[2-7][0-9A-Fa-f])`,
    // In a URL `%2F`, `%3A` and `%40` are how `/`, `:` and `@` are written inside userinfo (a user
    // `svc%40corp.com`): decoded, they would change where the URL's parts end.
    String.raw`%(?<percent>2[BDEbde]|3[0-9Dd]|4[1-9A-Fa-f]|5[0-9AFaf]|6[1-9A-Fa-f]|7[0-9AEae])`,
  ].join('|'),
  'g',
);

/** The cuts and decodings of the one-pass forms above, in text order. */
export function findInlineEdits(text: string): ViewEdit[] {
  const edits: ViewEdit[] = [];
  INLINE.lastIndex = 0;
  for (let match = INLINE.exec(text); match !== null; match = INLINE.exec(text)) {
    const replacement = replacementOf(match, text);
    if (replacement === undefined) continue;
    const edit: ViewEdit = { at: match.index, length: match[0].length, replacement };
    const groups = match.groups ?? {};
    if (groups.soft !== undefined || groups.lines !== undefined || groups.percent !== undefined)
      edit.isSoft = true;
    edits.push(edit);
  }
  return edits;
}

/** What a match reads as: '' for a cut, the literal for an interpolation, the character for an escape. */
function replacementOf(match: RegExpExecArray, text: string): string | undefined {
  const groups = match.groups ?? {};
  if (groups.template !== undefined) return groups.template;
  if (groups.fstring !== undefined) return groups.fstring;
  const code = groups.u4 ?? groups.ubraced ?? groups.hex ?? groups.percent;
  if (code === undefined) return '';
  const char = String.fromCodePoint(Number.parseInt(code, 16));
  // An escaped invisible character is cut between token characters, as the character itself is.
  if (INVISIBLE.test(char)) {
    const end = match.index + match[0].length;
    return TOKEN_CHAR.test(text[match.index - 1] ?? '') && TOKEN_CHAR.test(text[end] ?? '')
      ? ''
      : undefined;
  }
  return DECODABLE.test(char) ? char : undefined;
}
