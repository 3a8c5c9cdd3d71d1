import type { ViewEdit } from './find-inline-edits.js';

// Calls that join string literals into one: Python's `"".join([...])`, JavaScript's and Ruby's
// `[...].join("")`, `"a".concat("b", "c")`, Java's `String.join`, C#'s `string.Concat`, Go's
// `strings.Join` and `fmt.Sprint`, PHP's `implode`, SQL's `CONCAT(...)`.
// Found from its `(` (a single character V8 skips to quickly), then checked behind.
const JOINING_CALL = /\((?<=(?:[jJ]oin|[cC]oncat|CONCAT|implode|[sS]print)[ \t]*\()/g;
// `"sep".join(` and `.join("sep")`: the separator, when it is a short literal, goes between pieces.
const SEPARATOR_BEFORE = /(["'])([^"'\\\n]{0,8})\1[ \t]*\.[ \t]*$/;
const SEPARATOR_AFTER = /^[ \t]*(["'])([^"'\\\n]{0,8})\1[ \t]*\)/;
// A joint inside the call's arguments or list: one literal closed, a comma, the next opened.
const LIST_JOINT = /(["'`])[ \t]*,[ \t]*(?:\r?\n[ \t]*)*(?:[fFbBrRuU]{1,2}|@)?(["'`])/g;
// The arguments or list read, at most: a longer region is not a literal list someone split a key into.
const MAX_LIST_CHARS = 4096;
const SEPARATOR_LOOKBACK_CHARS = 24;
// The arguments open with a literal, or a list of them (`["a"`, `([]string{"a"`, `new[] { "a"`):
// `path.join(__dirname, ...)` is left without more reading.
const LITERAL_ARGUMENTS = /^\s*(?:[[({]\s*|\[\]\w+\{\s*|new\s*\w*\s*\[\]\s*\{\s*)?["'`]/;
// A list closing right after a literal: `"b"]`, `'b' )`.
const LITERAL_LIST_END = /["'`]\s*,?\s*$/;
const LOOKAHEAD_CHARS = 40;
// The call's name, read back from its `(`.
const CALL_NAME = /[A-Za-z]+[ \t]*$/;
const CALL_NAME_CHARS = 16;
// `String.join(sep, ...)`, `string.Join(sep, ...)`; Go's `strings.Join(list, sep)`.
const SEPARATOR_FIRST_OWNER = /(?:^|[^\w])[sS]tring[ \t]*\.[ \t]*$/;
const SEPARATOR_FIRST = /^[ \t]*(["'])([^"'\\\n]{0,8})\1[ \t]*,/;
const SEPARATOR_LAST_OWNER = /(?:^|[^\w])(?:strings|bytes)[ \t]*\.[ \t]*$/;
const SEPARATOR_LAST = /,[ \t]*(["'`])([^"'`\\\n]{0,8})\1[ \t]*$/;

/** The joints between the literals of every joining call's list, as edits of the scan view. */
export function findJoinedListEdits(text: string): ViewEdit[] {
  const edits: ViewEdit[] = [];
  JOINING_CALL.lastIndex = 0;
  for (let call = JOINING_CALL.exec(text); call !== null; call = JOINING_CALL.exec(text)) {
    const open = call.index;
    const name = CALL_NAME.exec(text.slice(Math.max(0, open - CALL_NAME_CHARS), open))?.[0] ?? '';
    const callStart = open - name.length;
    const before = text.slice(Math.max(0, callStart - SEPARATOR_LOOKBACK_CHARS), callStart);
    const separator = separatorOf(text, name.trim().toLowerCase(), before, open);
    // A join whose separator is not a literal (`path.join(a, b)`) builds no string a key hides in.
    if (separator === undefined) continue;
    const hasLiteralArguments = LITERAL_ARGUMENTS.test(
      text.slice(open + 1, open + 1 + LOOKAHEAD_CHARS),
    );
    const argumentsEnd = hasLiteralArguments ? findClose(text, open, '(', ')') : undefined;
    if (argumentsEnd !== undefined) pushJoints(text, open, argumentsEnd, separator, edits);
    // `[...].join(...)`: the list stands before the call.
    const listEnd = before.trimEnd().endsWith('.') ? lastCloseBefore(text, callStart) : undefined;
    const isLiteralList =
      listEnd !== undefined &&
      LITERAL_LIST_END.test(text.slice(Math.max(0, listEnd - LOOKAHEAD_CHARS), listEnd));
    if (listEnd !== undefined && isLiteralList) {
      const listStart = findOpen(text, listEnd);
      if (listStart !== undefined) pushJoints(text, listStart, listEnd, separator, edits);
    }
  }
  return edits.sort((a, b) => a.at - b.at);
}

/**
 * What the call puts between its pieces, when the code says it with a literal: nothing for
 * `concat`, `CONCAT` and `Sprint`; the receiver of Python's `"sep".join`; the argument of
 * `.join("sep")`; the first argument of `String.join`, `string.Join` and `implode`; the last of
 * Go's `strings.Join`. Undefined when no literal says it.
 */
function separatorOf(text: string, name: string, before: string, open: number): string | undefined {
  if (name !== 'join' && name !== 'implode') return '';
  const receiver = SEPARATOR_BEFORE.exec(before);
  if (receiver !== null) return receiver[2];
  const head = text.slice(open + 1, open + 1 + SEPARATOR_LOOKBACK_CHARS);
  const only = SEPARATOR_AFTER.exec(head);
  if (only !== null) return only[2];
  if (name === 'implode' || SEPARATOR_FIRST_OWNER.test(before))
    return SEPARATOR_FIRST.exec(head)?.[2];
  if (SEPARATOR_LAST_OWNER.test(before)) {
    const close = findClose(text, open, '(', ')');
    return close === undefined ? undefined : SEPARATOR_LAST.exec(text.slice(open, close))?.[2];
  }
  return undefined;
}

function pushJoints(
  text: string,
  from: number,
  to: number,
  separator: string,
  edits: ViewEdit[],
): void {
  const region = text.slice(from, to);
  LIST_JOINT.lastIndex = 0;
  for (let joint = LIST_JOINT.exec(region); joint !== null; joint = LIST_JOINT.exec(region)) {
    edits.push({ at: from + joint.index, length: joint[0].length, replacement: separator });
  }
}

/** The index of the bracket closing the one at `open`, within MAX_LIST_CHARS; quotes are skipped. */
function findClose(
  text: string,
  open: number,
  opening: string,
  closing: string,
): number | undefined {
  let depth = 0;
  const end = Math.min(text.length, open + MAX_LIST_CHARS);
  for (let index = open; index < end; index += 1) {
    const char = text[index];
    if (char === '"' || char === "'" || char === '`') {
      index = skipLiteral(text, index, end);
    } else if (char === opening || char === '[' || char === '{') depth += 1;
    else if (char === closing || char === ']' || char === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return undefined;
}

/** The `]` or `)` that ends the list right before `.join` at `callAt`, if there is one. */
function lastCloseBefore(text: string, callAt: number): number | undefined {
  let index = callAt - 1;
  while (index >= 0 && /[\s.]/.test(text[index] ?? '')) index -= 1;
  return text[index] === ']' || text[index] === ')' ? index : undefined;
}

/** The bracket opening the list that closes at `close`, within MAX_LIST_CHARS. */
function findOpen(text: string, close: number): number | undefined {
  const closing = text[close];
  const opening = closing === ']' ? '[' : '(';
  let depth = 0;
  const start = Math.max(0, close - MAX_LIST_CHARS);
  for (let index = close; index >= start; index -= 1) {
    const char = text[index];
    if (char === closing) depth += 1;
    else if (char === opening) {
      depth -= 1;
      if (depth === 0) return index;
    } else if (char === '\n' && text[index - 1] === '\n') return undefined;
  }
  return undefined;
}

/** The index of the quote closing the literal opened at `at` (or `end`), escapes stepped over. */
function skipLiteral(text: string, at: number, end: number): number {
  const quote = text[at];
  for (let index = at + 1; index < end; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === quote || (char === '\n' && quote !== '`')) return index;
  }
  return end;
}
