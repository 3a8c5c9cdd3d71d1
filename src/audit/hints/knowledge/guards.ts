// The guards that really clean a value, from what each language's library offers: membership in an
// allow-list, equality with a literal, a prefix check on a resolved path, an exact host check, a
// test that a name holds no separator or `..`, a test that a value is a number or letters and digits.
// Each pattern reads one condition (or one conjunct of it); group 1 (or the last group) is the name it proves safe.

// Membership in a list, set or map written in the code: the tested value is one of its entries.
export const MEMBERSHIP: readonly RegExp[] = [
  /^.+?\s*(?:\?\.|\.)\s*(?:includes|has|contains|containsKey|include\?|member\?|key\?)\s*\(\s*(.+?)\s*\)$/,
  /^(?:in_array|array_key_exists)\s*\(\s*([^,]+?)\s*,/,
  /^([\w$.[\]'"]+)\s+in\s+[\w$.[\]'"]+$/,
  /^([\w$.[\]'"]+)\s*\.\s*in\?\s*\(/,
  /^isset\s*\(\s*[\w$]+\s*\[\s*([^\]]+)\]\s*\)$/,
  /^[\w$]+\s*\[\s*([A-Za-z_$][\w$.]*)\s*\]$/,
];
// Equality with a literal: the value is that literal.
export const EQUALITY: readonly RegExp[] = [
  /^([\w$.[\]'"]+)\s*(?:===|==)\s*["'`]\s*["'`]$/,
  /^["'`]\s*["'`]\s*(?:===|==)\s*([\w$.[\]'"]+)$/,
  /^([\w$.]+)\s*\.\s*equals(?:IgnoreCase)?\s*\(\s*"\s*"\s*\)$/,
  /^"\s*"\s*\.\s*equals(?:IgnoreCase)?\s*\(\s*([\w$.]+)\s*\)$/,
];
// A prefix check on a resolved path: the value stays under a root directory.
export const CONFINEMENT: readonly RegExp[] = [
  /^([\w$]+)(?:\.\w+\(\s*\))?\s*\.\s*(?:startsWith|startswith|start_with\?)\s*\(/,
  /^(?:strings\.HasPrefix|str_starts_with|StringUtils\.startsWith)\s*\(\s*(?:filepath\.Clean\s*\(\s*)?([\w$]+)/,
  // Strict only: `strpos(...) == 0` also holds when the prefix is missing (false == 0).
  /^(?:strpos)\s*\(\s*([\w$]+)\s*,[^)]*\)\s*===\s*0$/,
  // Python: `str(p).startswith(root)`, `os.path.realpath(p).startswith(root)`, `p.is_relative_to(root)`.
  /^str\s*\(\s*([\w$]+)\s*\)\s*\.\s*startswith\s*\(/,
  /^os\.path\.(?:realpath|abspath|normpath)\s*\(\s*([\w$]+)\s*\)\s*\.\s*startswith\s*\(/,
  /^([\w$]+)\s*\.\s*is_relative_to\s*\(/,
  // Ruby: `File.expand_path(name, root).start_with?(root)`, `File.realpath(p).start_with?(…)`, and
  // Pathname's `cleanpath`/`realpath` (https://docs.ruby-lang.org/en/3.3/File.html#method-c-expand_path).
  /^(?:File\.(?:expand_path|realpath|realdirpath|absolute_path)|Pathname(?:\.new)?)\s*\(\s*([\w$]+)[^()]*\)(?:\.(?:cleanpath|realpath|to_s)(?:\(\s*\))?)*\s*\.\s*start_with\?\s*\(/,
  // Go 1.20: a lexically local path (no `..` out, not absolute, no reserved name).
  /^filepath\.IsLocal\s*\(\s*([\w$]+)\s*\)$/,
];

// An exact test of a parsed URL's host or origin against a list: the URL stays on listed hosts.
export const HOST_CHECK: readonly RegExp[] = [
  /^(?:[\w.]*\.)?(?:urlparse|urlsplit)\s*\(\s*([\w$]+)\s*\)\s*\.\s*(?:netloc|hostname)\s+in\s+[\w$.[\]'"]+$/,
  /^.+?\s*\.\s*(?:includes|has|contains|include\?)\s*\(\s*(?:new\s+)?URL\s*\(\s*([\w$]+)\s*\)\s*\.\s*(?:origin|host|hostname)\s*\)$/,
];

// A test that a name holds a separator or `..` (read on the original text: the literal matters).
// Where it does not, the name is a single path segment.
export const SEPARATOR_TEST: readonly RegExp[] = [
  /^([\w$]+)\s*\.\s*(?:includes|contains|include\?)\s*\(\s*(["'])(?:\/|\.\.(?:\/|\\\\)?|\\\\)\2\s*\)$/,
  /^(?:strings\.Contains|str_contains|StringUtils\.contains)\s*\(\s*([\w$]+)\s*,\s*(["'])(?:\/|\.\.(?:\/|\\\\)?)\2\s*\)$/,
  /^(["'])(?:\/|\.\.(?:\/|\\\\)?)\1\s+in\s+([\w$]+)$/,
  // PHP before str_contains: `strpos($name, '..') !== false`; strict only, as `..` at offset 0
  // gives 0, which `!= false` reads as not found.
  /^(?:strpos|stripos|strstr)\s*\(\s*(\$\w+)\s*,\s*(["'])(?:\/|\.\.(?:\/|\\\\)?)\2\s*\)\s*!==\s*false$/,
];

// A test that a value is a number or a run of letters and digits (read on the original text: the
// pattern matters). Where it holds, the value can carry no quote, separator or operator (`\w` is
// letters, digits and `_` in every engine, Unicode letters in Python's). Only whole-value tests
// count: `\A…\z` in Ruby, `^…$` elsewhere, `matches` and `fullmatch`; Ruby's `x !~ re` is `!(x =~ re)`.
export const SAFE_CLASS = String.raw`(?:\\{1,2}[dw]|\[(?:\\{1,2}[dw]|0-9|a-z|A-Z)+\])(?:[+*]|\{\d+(?:,\d*)?\})`;
export const TYPE_CHECK: readonly RegExp[] = [
  /^(?:is_numeric|ctype_digit|ctype_alnum|is_int|is_integer|is_float)\s*\(\s*(\$\w+)\s*\)$/,
  /^filter_var\s*\(\s*(\$\w+)\s*,\s*FILTER_VALIDATE_(?:INT|FLOAT|IP|BOOLEAN|BOOL)\b[^()]*\)$/,
  /^(?:Number\.isInteger|Number\.isSafeInteger|validator\.isInt|validator\.isUUID|validator\.isAlphanumeric|StringUtils\.isNumeric|StringUtils\.isAlphanumeric|NumberUtils\.isDigits)\s*\(\s*([\w$]+)\s*\)$/,
  /^([\w$]+)\s*\.\s*(?:isdigit|isdecimal|isnumeric|isalnum)\s*\(\s*\)$/,
  // Not with the `m` flag, under which `^` and `$` match at every line of the value.
  new RegExp(String.raw`^\/\^${SAFE_CLASS}\$\/[gisuy]*\s*\.\s*test\s*\(\s*([\w$]+)\s*\)$`),
  new RegExp(
    String.raw`^preg_match\s*\(\s*(["'])\/\^${SAFE_CLASS}(?:\$|\\z)\/[a-ln-zA-Z]*\1\s*,\s*(\$\w+)\s*\)$`,
  ),
  new RegExp(String.raw`^([\w$]+)\s*\.\s*matches\s*\(\s*"\^?${SAFE_CLASS}\$?"\s*\)$`),
  new RegExp(String.raw`^re\.fullmatch\s*\(\s*r?(["'])${SAFE_CLASS}\1\s*,\s*(\w+)\s*\)$`),
  new RegExp(String.raw`^([@\w]+)\s*(?:=~\s*|\.match\?\s*\(\s*)\/\\A${SAFE_CLASS}\\z\/\)?$`),
];

// A test that a value holds an apostrophe (read on the original text): where it does not, the value
// cannot close the '…' string an XPath query puts it in. Only the apostrophe: a value tested for `"`
// alone can still close a '…' string, and queries quote values with apostrophes far more often; a
// query that quotes with `"` after an apostrophe test is a known gap.
export const QUOTE_TEST: readonly RegExp[] = [
  /^(?:"'"|'\\'')\s+in\s+([\w$]+)$/,
  /^([\w$]+)\s*\.\s*(?:includes|contains|include\?)\s*\(\s*(?:"'"|'\\'')\s*\)$/,
];

// Statements that leave the function (keywords and the calls that end a request or the program):
// after `if (...) return`, only the other path goes on.
export const ABRUPT_END =
  /^(?:return|throw|raise|abort|exit|die|redirect|halt|panic)\b|\bsys\.exit\s*\(/;
