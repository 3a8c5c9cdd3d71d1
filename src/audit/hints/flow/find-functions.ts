import type { FlowFunction, Span } from './flow-node.js';
import type { MaskedText } from './masked-text.js';
import { isDeclarationHead } from './parse-brace-statements.js';
import { ROUTE_BLOCKS } from '../knowledge/sources.js';

// How far back from a `{` a function header is looked for.
const HEADER_LOOKBACK_CHARS = 600;
const ARROW_TAIL = /(?:=>|->)\s*$/;
const FUNCTION_KEYWORD = /\b(?:function\s*\*?|func)\s*(?:\([^()]*\)\s*)?([\w$]*)\s*$/;
const NAMED_ASSIGNMENT =
  /(?:\b(?:const|let|var|val)\s+|[\w$]+\.)?([\w$]+)\s*(?:[=:]|:=)\s*(?:async\s+)?$/;
const METHOD_NAME = /([\w$]+)\s*(?:<[^<>]*>)?\s*$/;
const PYTHON_DEF = /^([ \t]*)(?:async[ \t]+)?def[ \t]+([\w]+)[ \t]*\(/gm;
const RUBY_DEF = /^([ \t]*)def[ \t]+(?:self\.)?([\w?!]+)[ \t]*(\()?/gm;
const EXPRESSION_ARROW =
  /\b(?:const|let|var)\s+([\w$]+)\s*(?::\s*[^=]+)?=\s*(?:async\s+)?(\([^()]*(?:\([^()]*\)[^()]*)*\)|[\w$]+)\s*(?::\s*[^=]+?)?=>\s*(?=[^\s{])/g;

/** The function whose body opens at a `{` (method, function, arrow function, Go `func`), or null. */
export function braceFunctionAt(masked: MaskedText, open: number): FlowFunction | null {
  const text = masked.text;
  const floor = Math.max(0, open - HEADER_LOOKBACK_CHARS);
  const tailEnd = masked.lastNonSpace(open, floor) + 1;
  const tail = text.slice(floor, tailEnd);
  const body: Span = { start: open + 1, end: masked.closeOf(open) };
  if (ARROW_TAIL.test(tail)) {
    const arrowAt = floor + tail.search(/(?:=>|->)\s*$/);
    const params = paramsBefore(masked, arrowAt, floor);
    if (params === null) return null;
    const name = NAMED_ASSIGNMENT.exec(text.slice(floor, params.start - 1))?.[1] ?? null;
    return {
      name,
      start: params.start - 1,
      params,
      body,
      isExpressionBody: false,
      header: { start: params.start - 1, end: open },
    };
  }
  const close = masked.lastNonSpace(open, floor);
  // The parameter list: the last `)` before the body, past any return type or `throws` clause.
  const paramsClose = lastParamsClose(masked, close, floor);
  if (paramsClose === -1) return null;
  const paramsOpen = masked.openOf(paramsClose, floor);
  if (paramsOpen === -1) return null;
  const before = text.slice(floor, paramsOpen);
  const keyword = FUNCTION_KEYWORD.exec(before);
  // A PHP closure's `use ($x)` list follows its parameters (`function ($id) use ($x) {`).
  if (keyword !== null && keyword[1] === 'use' && keyword[0].startsWith('function')) {
    const paren = floor + keyword.index + keyword[0].indexOf('(');
    const start = statementStart(masked, paren, floor);
    return {
      name: null,
      start,
      params: { start: paren + 1, end: masked.closeOf(paren) },
      body,
      isExpressionBody: false,
      header: { start, end: open },
    };
  }
  const headerStart = statementStart(masked, paramsOpen, floor);
  const head = text.slice(headerStart, close + 1).trim();
  if (keyword === null && !isDeclarationHead(head)) return null;
  const name =
    keyword !== null
      ? keyword[1] || (NAMED_ASSIGNMENT.exec(before.slice(0, keyword.index))?.[1] ?? null)
      : (METHOD_NAME.exec(before)?.[1] ?? null);
  if (
    keyword === null &&
    (name === null ||
      /^(?:if|for|while|switch|catch|foreach|synchronized|using|lock|with|return|function)$/.test(
        name,
      ))
  )
    return null;
  return {
    name: name === '' ? null : name,
    start: headerStart,
    params: { start: paramsOpen + 1, end: paramsClose },
    body,
    isExpressionBody: false,
    header: { start: headerStart, end: open },
  };
}

// `(a, b) =>` or `a =>` (with an optional return type): the parameter span, or null.
function paramsBefore(masked: MaskedText, arrowAt: number, floor: number): Span | null {
  const text = masked.text;
  let end = masked.lastNonSpace(arrowAt, floor);
  // A return type annotation between the list and the arrow: `(req: Request): void =>`.
  const typed = /\)\s*:\s*[^()=]*$/.exec(text.slice(floor, end + 1));
  if (typed !== null) end = floor + typed.index;
  if (text[end] === ')') {
    const open = masked.openOf(end, floor);
    return open === -1 ? null : { start: open + 1, end };
  }
  const word = /[\w$]+$/.exec(text.slice(floor, end + 1));
  return word === null ? null : { start: end + 1 - word[0].length, end: end + 1 };
}

function lastParamsClose(masked: MaskedText, close: number, floor: number): number {
  const text = masked.text;
  if (text[close] === ')') {
    // Go results `(T, error)` follow the parameters; C#-style `where` clauses are not handled.
    const open = masked.openOf(close, floor);
    const before = masked.lastNonSpace(open, floor);
    if (
      open !== -1 &&
      text[before] === ')' &&
      /\bfunc\b/.test(text.slice(Math.max(floor, open - 300), open))
    ) {
      return before;
    }
    return close;
  }
  // `) throws A, B {`, `): Promise<T> {`, Go `) error {`: back to the last `)` on the header.
  const header = text.slice(floor, close + 1);
  const tail = /\)\s*(?:throws\s+[\w.,\s]+|:\s*[^(){};=]+|[\w.*[\]]+)\s*$/.exec(header);
  return tail === null ? -1 : floor + tail.index;
}

// Where the statement holding a header starts: after the previous `;`, `{` or `}` (annotations included).
function statementStart(masked: MaskedText, at: number, floor: number): number {
  const text = masked.text;
  for (let cursor = at - 1; cursor >= floor; cursor--) {
    const code = text[cursor];
    if (code === ')' || code === ']') {
      const open = masked.openOf(cursor, floor);
      if (open === -1) return floor;
      cursor = open;
      continue;
    }
    if (code === ';' || code === '{' || code === '}') return masked.skipSpace(cursor + 1, at);
  }
  return floor;
}

// An arrow function introduced by a keyword (PHP's `fn ($id) => …`, `static fn`): anonymous, read
// wherever it is written; its header runs from its statement's start (the call it is handed to).
const KEYWORD_ARROW =
  /\b(?:static\s+)?fn\s*(\([^()]*(?:\([^()]*\)[^()]*)*\))\s*(?::\s*\??[\w\\|]+\s*)?=>\s*(?=[^\s{])/g;

/**
 * Arrow functions whose body is one expression: assigned to a name (`const f = (x) => x.trim()`), or
 * introduced by a keyword (`fn ($id) => User::find($id)`).
 */
export function findExpressionArrows(masked: MaskedText): FlowFunction[] {
  const text = masked.text;
  const functions: FlowFunction[] = [];
  EXPRESSION_ARROW.lastIndex = 0;
  for (
    let match = EXPRESSION_ARROW.exec(text);
    match !== null;
    match = EXPRESSION_ARROW.exec(text)
  ) {
    const paramsText = match[2] ?? '';
    const paramsStart = match.index + match[0].indexOf(paramsText, match[0].indexOf('='));
    const params = paramsText.startsWith('(')
      ? { start: paramsStart + 1, end: paramsStart + paramsText.length - 1 }
      : { start: paramsStart, end: paramsStart + paramsText.length };
    const bodyStart = match.index + match[0].length;
    functions.push({
      name: match[1] ?? null,
      start: match.index,
      params,
      body: { start: bodyStart, end: expressionEnd(masked, bodyStart) },
      isExpressionBody: true,
      header: { start: match.index, end: bodyStart },
    });
  }
  KEYWORD_ARROW.lastIndex = 0;
  for (let match = KEYWORD_ARROW.exec(text); match !== null; match = KEYWORD_ARROW.exec(text)) {
    const paramsText = match[1] ?? '';
    const paramsStart = match.index + match[0].indexOf(paramsText);
    const bodyStart = match.index + match[0].length;
    const start = statementStart(
      masked,
      match.index,
      Math.max(0, match.index - HEADER_LOOKBACK_CHARS),
    );
    functions.push({
      name: null,
      start,
      params: { start: paramsStart + 1, end: paramsStart + paramsText.length - 1 },
      body: { start: bodyStart, end: expressionEnd(masked, bodyStart) },
      isExpressionBody: true,
      header: { start, end: bodyStart },
    });
  }
  return functions;
}

// The end of an expression: a `;`, a newline or a `,` at depth zero, or an unmatched closer.
function expressionEnd(masked: MaskedText, start: number): number {
  const text = masked.text;
  for (let at = start; at < text.length; at++) {
    const code = text[at];
    if (code === '(' || code === '[' || code === '{') {
      at = masked.closeOf(at);
      continue;
    }
    if (code === ';' || code === ',' || code === ')' || code === ']' || code === '}') return at;
    if (code === '\n' && !/^\s*[.?:+\-*/|&]/.test(text.slice(at + 1, at + 40))) {
      if (!/[=+\-*/|&?:(,]\s*$/.test(text.slice(Math.max(start, at - 40), at))) return at;
    }
  }
  return text.length;
}

/** Every Python or Ruby `def` in a masked file, with its indented body, by body start. */
export function findIndentFunctions(masked: MaskedText, isRuby: boolean): FlowFunction[] {
  const text = masked.text;
  const functions: FlowFunction[] = [];
  const pattern = isRuby ? RUBY_DEF : PYTHON_DEF;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const indent = (match[1] ?? '').length;
    const afterName = match.index + match[0].length;
    let params: Span;
    let headerEnd: number;
    if (isRuby && match[3] === undefined) {
      const lineEnd = lineEndOf(text, afterName);
      params = { start: afterName, end: lineEnd };
      headerEnd = lineEnd;
    } else {
      const open = afterName - 1;
      const close = masked.closeOf(open);
      params = { start: open + 1, end: close };
      headerEnd = lineEndOf(text, close);
    }
    const bodyStart = Math.min(text.length, headerEnd + 1);
    functions.push({
      name: match[2] ?? null,
      start: decoratorStart(text, match.index + (match[1] ?? '').length),
      params,
      body: { start: bodyStart, end: blockEnd(text, bodyStart, indent) },
      isExpressionBody: false,
      header: { start: decoratorStart(text, match.index), end: headerEnd },
    });
  }
  if (isRuby) functions.push(...routeBlocks(text, ROUTE_BLOCKS.ruby));
  return functions.sort((a, b) => a.body.start - b.body.start);
}

// Route blocks (`get '/files/:name' do |name|`) read as functions: the block's parameters, its body.
function routeBlocks(text: string, route: RegExp | undefined): FlowFunction[] {
  if (route === undefined) return [];
  const pattern = new RegExp(route.source, 'gm');
  const blocks: FlowFunction[] = [];
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const lineStart = match.index;
    const headerEnd = lineStart + match[0].length;
    const params = match[3] ?? '';
    // The parameters sit just before the closing `|` (none: an empty span at the header's end).
    const paramsEnd = params === '' ? headerEnd : lineStart + match[0].lastIndexOf('|');
    const paramsStart = paramsEnd - params.length;
    const bodyStart = Math.min(text.length, headerEnd + 1);
    blocks.push({
      name: match[2] ?? null,
      start: lineStart,
      params: { start: paramsStart, end: paramsEnd },
      body: { start: bodyStart, end: blockEnd(text, bodyStart, (match[1] ?? '').length) },
      isExpressionBody: false,
      header: { start: lineStart, end: headerEnd },
    });
  }
  return blocks;
}

function lineEndOf(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end === -1 ? text.length : end;
}

// Decorator lines (`@app.route(...)`) directly above a `def` belong to its header.
function decoratorStart(text: string, defStart: number): number {
  let start = text.lastIndexOf('\n', defStart - 1) + 1;
  for (;;) {
    const previousEnd = start - 1;
    if (previousEnd <= 0) return start;
    const previousStart = text.lastIndexOf('\n', previousEnd - 1) + 1;
    if (!/^\s*@/.test(text.slice(previousStart, previousEnd))) return start;
    start = previousStart;
  }
}

// The end of the lines indented deeper than `indent` (blank lines do not end a block).
function blockEnd(text: string, start: number, indent: number): number {
  let at = start;
  while (at < text.length) {
    const lineEnd = lineEndOf(text, at);
    const line = text.slice(at, lineEnd);
    if (line.trim() !== '') {
      const lineIndent = line.length - line.trimStart().length;
      if (lineIndent <= indent) return at;
    }
    at = lineEnd + 1;
  }
  return text.length;
}
