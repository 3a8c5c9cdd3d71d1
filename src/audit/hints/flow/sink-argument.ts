import type { Span } from './flow-node.js';
import { splitTopLevel } from './flow-file.js';
import type { MaskedText } from './masked-text.js';

/**
 * Which text a sink hands to the flow analysis: the arguments of the call the match opens or sits
 * in (`call`; options objects and keyword arguments after the first are left out), only its first
 * argument (`first`: the path of `writeFile(path, data)`), the expression around the match
 * (`expression`: a query string being built), or what follows the match to the end of the
 * statement (`rest`: the right side of `x.innerHTML =`), or a response's body (`body`: the first
 * argument, or what follows the match, and of a tuple only its first item: Flask's `(body, status,
 * headers)`, so a header is not read as the page), or the receiver of a method the match calls
 * (`receiver`: `path` in `path.read_text(`), or what a process call runs (`command`: its first
 * argument, of an argument list the program or a shell's script, `flow/command-value.ts`), or
 * every argument, options objects included (`all`: ldapjs's `search(base, { filter })`), or the
 * last non-blank line before the match (`previous`: what a Ruby block ends on, read at its `end`), or what a
 * call taking the program and its arguments one by one runs (`argv`: `ProcessBuilder("sh", "-c", s)`,
 * `exec.Command(name, args...)`; the arguments from the match's end, read as one list, or the one list
 * passed whole).
 */
export type SinkArgument =
  | 'call'
  | 'all'
  | 'first'
  | 'expression'
  | 'rest'
  | 'body'
  | 'receiver'
  | 'command'
  | 'argv'
  | 'previous';

// A function literal handed to a call (Go's `func(i int, n *Node) {…}`, JS's `function (err) {…}`,
// `(err) => …` or `err => …`) is code the call runs back, not a value: what its body reads is not the
// argument. Group 1 marks an arrow.
const FUNCTION_LITERAL =
  /^(?:func\s*\(|(?:async\s+)?function\b|(?:async\s+)?((?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>))/;
// A `func`/`function` literal followed by its arguments (`func() string { … }()`) is called in place:
// its value is what it returns. An arrow cannot be called without parentheses around it, and a wrapped
// one (`(() => x)()`) does not start like a literal, so an arrow ending on `)` (`(e) => log(e)`) is passed.
function isFunctionPassed(text: string): boolean {
  const literal = FUNCTION_LITERAL.exec(text);
  if (literal === null) return false;
  return literal[1] !== undefined || !text.endsWith(')');
}

// How far the span search looks around a hit.
const REACH_CHARS = 3_000;
// An argument that configures the call rather than feeding it: `{ timeout: 5 }`, `params=...`, `key: value`.
const OPTION_ARGUMENT = /^(?:\{|[A-Za-z_]\w*\s*=(?![=>])|[A-Za-z_]\w*:\s|:\w+\s*=>)/;

/** The spans of masked text a sink's value is read from. */
export function sinkArgumentSpans(
  masked: MaskedText,
  hit: number,
  matchEnd: number,
  mode: SinkArgument,
): Span[] {
  if (
    mode === 'call' ||
    mode === 'all' ||
    mode === 'first' ||
    mode === 'command' ||
    mode === 'argv'
  ) {
    let open = outermostUnclosed(masked.text, hit, matchEnd);
    if (open === -1) open = enclosingOpen(masked, hit);
    // A call written without parentheses (Ruby's `exec "sh", "-c", s`) takes the rest of the statement.
    if (open === -1 && mode === 'argv')
      return splitTopLevel(masked, {
        start: matchEnd,
        end: statementEndOrTuple(masked, matchEnd),
      })
        .filter((arg) => !isBlockPass(masked, arg))
        .map((arg) => unsplat(masked, arg));
    if (open === -1) return [{ start: matchEnd, end: statementEnd(masked, matchEnd) }];
    const args = splitTopLevel(masked, {
      start: open + 1,
      end: masked.closeOf(open, open + REACH_CHARS),
    });
    if (mode === 'all') return args;
    // A context the call takes before the program (`exec.CommandContext(ctx, …)`) is in the match;
    // options and a callback after the program (`spawn('sh', args, { cwd })`) are not what it runs.
    if (mode === 'argv')
      return args
        .filter((arg) => arg.start >= matchEnd || arg.end > matchEnd)
        .filter((arg, index) => index === 0 || !isOptionOrCallback(masked, arg))
        .filter((arg) => !isBlockPass(masked, arg))
        .map((arg) => unsplat(masked, arg));
    if (mode !== 'call') return args.slice(0, 1);
    return args.filter((arg, index) => {
      const text = masked.slice(arg.start, arg.end).trim();
      return index === 0 || (!OPTION_ARGUMENT.test(text) && !isFunctionPassed(text));
    });
  }
  if (mode === 'rest') return [{ start: matchEnd, end: statementEnd(masked, matchEnd) }];
  if (mode === 'previous') return [previousLine(masked, hit)];
  if (mode === 'receiver') {
    // `return path.read_text()`: the receiver starts after the keyword, which is no call.
    const start = expressionStart(masked, hit);
    const keyword = /^\s*(?:return|yield|await)\b/.exec(masked.slice(start, hit));
    return [{ start: start + (keyword?.[0].length ?? 0), end: hit }];
  }
  if (mode === 'body') {
    const open = outermostUnclosed(masked.text, hit, matchEnd);
    const whole =
      open === -1
        ? { start: matchEnd, end: statementEndOrTuple(masked, matchEnd) }
        : { start: open + 1, end: masked.closeOf(open, open + REACH_CHARS) };
    return firstOfTuple(masked, splitTopLevel(masked, whole)[0]);
  }
  return [{ start: expressionStart(masked, hit), end: statementEnd(masked, hit) }];
}

/** The last non-blank line before the one holding `at` (the statement a Ruby `end` closes on). */
export function previousLine(masked: MaskedText, at: number): Span {
  const text = masked.text;
  let end = text.lastIndexOf('\n', at - 1);
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    if (text.slice(start, end).trim() !== '') return { start, end };
    end = start - 1;
  }
  return { start: at, end: at };
}

// The call the match opens: the first `(` it leaves open (`getSession().setAttribute(`), or else the
// first it opens and closes (`.find(query)`); -1 when it opens none.
function outermostUnclosed(text: string, start: number, end: number): number {
  const open: number[] = [];
  let first = -1;
  for (let at = start; at < end; at++) {
    if (text[at] === '(') {
      open.push(at);
      if (first === -1) first = at;
    } else if (text[at] === ')') open.pop();
  }
  return open[0] ?? first;
}

// The unmatched `(` before a position on the same statement, past any list or object literal
// the position sits in (`spawn(cmd, { shell: true })`), or -1.
function enclosingOpen(masked: MaskedText, at: number): number {
  const text = masked.text;
  let depth = 0;
  for (let cursor = at - 1; cursor >= Math.max(0, at - REACH_CHARS); cursor--) {
    const code = text[cursor];
    if (code === ')' || code === ']' || code === '}') depth++;
    else if (code === '(' || code === '[' || code === '{') {
      if (depth > 0) {
        depth--;
        continue;
      }
      if (code === '(') return cursor;
      // A block's brace (after `)` or `=>`) ends the search; a literal's brace does not.
      if (code === '{' && /(?:\)|=>|->)\s*$/.test(text.slice(Math.max(0, cursor - 40), cursor)))
        return -1;
    } else if (code === ';' && depth === 0) return -1;
  }
  return -1;
}

// A Python block header ends on the line before `at` (`def f():`, `if x:`): what follows is a new statement.
function opensBlock(text: string, at: number): boolean {
  const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
  return /^\s*(?:async\s+)?(?:def|class|if|elif|else|for|while|with|try|except|finally)\b.*:\s*$/.test(
    line,
  );
}

// Back to an unmatched bracket, a `,`, `;`, `=` or `return` at depth zero.
function expressionStart(masked: MaskedText, at: number): number {
  const text = masked.text;
  let depth = 0;
  for (let cursor = at - 1; cursor >= Math.max(0, at - REACH_CHARS); cursor--) {
    const code = text[cursor];
    if (code === ')' || code === ']' || code === '}') depth++;
    else if (code === '(' || code === '[' || code === '{') {
      if (depth === 0) return cursor + 1;
      depth--;
    } else if (depth === 0) {
      if (code === ',' || code === ';') return cursor + 1;
      if (
        code === '=' &&
        !/[=!<>]/.test(text[cursor - 1] ?? '') &&
        text[cursor + 1] !== '=' &&
        text[cursor + 1] !== '>'
      ) {
        return cursor + 1;
      }
      if (code === '\n' && (endsStatement(text, cursor) || opensBlock(text, cursor))) {
        const after = text.slice(cursor + 1, at).trimStart();
        if (!/^[.+\-*/%&|?:]/.test(after)) return cursor + 1;
      }
    }
  }
  return Math.max(0, at - REACH_CHARS);
}

// Whether the line before a newline ends a statement (it does not end with an operator or opener).
function endsStatement(text: string, newline: number): boolean {
  const before = text.slice(Math.max(0, newline - 200), newline).trimEnd();
  return !/[,([{=+\-*/%&|^!?:<>.]$/.test(before);
}

/** An options object or a callback after a program's arguments (`execFile(file, args, (err, out) => …)`): neither is what the call runs. */
function isOptionOrCallback(masked: MaskedText, span: Span): boolean {
  const text = masked.slice(span.start, span.end).trim();
  return OPTION_ARGUMENT.test(text) || isFunctionPassed(text);
}

// A block passed as an argument (Ruby's `&:read`, `&block`) is code the call yields to, not an argument.
function isBlockPass(masked: MaskedText, span: Span): boolean {
  const start = masked.skipSpace(span.start, span.end);
  return /^&[:\w]/.test(masked.slice(start, start + 2));
}

// A list spread into the call with a leading `*` (Ruby's and Python's `*args`) is read as the list.
function unsplat(masked: MaskedText, span: Span): Span {
  const start = masked.skipSpace(span.start, span.end);
  return /^\*[A-Za-z_@]/.test(masked.slice(start, start + 2))
    ? { start: start + 1, end: span.end }
    : span;
}

/** Forward to a `;`, a `,` or unmatched closer at depth zero, or a newline that ends the statement. */
function statementEnd(masked: MaskedText, at: number): number {
  const text = masked.text;
  const limit = Math.min(text.length, at + REACH_CHARS);
  let depth = 0;
  let mayHaveModifier = true;
  for (let cursor = at; cursor < limit; cursor++) {
    const code = text[cursor];
    if (code === '(' || code === '[' || code === '{') depth++;
    else if (code === ')' || code === ']' || code === '}') {
      if (depth === 0) return cursor;
      depth--;
    } else if (depth === 0 && (code === ';' || code === ',')) return cursor;
    else if (
      mayHaveModifier &&
      depth === 0 &&
      (code === 'i' || code === 'u') &&
      isConditionKeyword(text, cursor, at)
    ) {
      // A trailing `if`/`unless` (Ruby's `halt 400, msg if q.nil?`) is the statement's condition,
      // not its value; Python's `a if c else b` is one value, told apart by its `else` (looked for
      // once: a later keyword sits before that same `else`).
      const lineEnd = text.indexOf('\n', cursor);
      const end = lineEnd === -1 || lineEnd > limit ? limit : lineEnd;
      if (!/\belse\b/.test(text.slice(cursor, end))) return cursor;
      mayHaveModifier = false;
    } else if (depth === 0 && code === '\n' && endsStatement(text, cursor)) {
      const next = text.slice(cursor + 1, cursor + 80).trimStart();
      if (!/^[.+\-*/%&|?:]/.test(next)) return cursor;
    }
  }
  return limit;
}

// An `if` or `unless` keyword after some of the statement (not a name that starts with one).
function isConditionKeyword(text: string, at: number, start: number): boolean {
  return (
    at > start && /\s/.test(text[at - 1] ?? '') && /^(?:if|unless)\s/.test(text.slice(at, at + 7))
  );
}

// A statement's end, reading past the commas of a tuple written without parentheses (`return body, 200`).
function statementEndOrTuple(masked: MaskedText, at: number): number {
  let end = statementEnd(masked, at);
  while (masked.text[end] === ',') end = statementEnd(masked, end + 1);
  return end;
}

// The first item of a parenthesised tuple (`(body, headers)`), or the span itself.
function firstOfTuple(masked: MaskedText, span: Span | undefined): Span[] {
  if (span === undefined) return [];
  const start = masked.skipSpace(span.start, span.end);
  if (masked.text[start] !== '(' || masked.closeOf(start, span.end) + 1 < span.end) return [span];
  const items = splitTopLevel(masked, { start: start + 1, end: masked.closeOf(start, span.end) });
  return items.length > 1 ? firstOfTuple(masked, items[0]) : [span];
}
