import type { Language } from '../detect-languages.js';
import {
  ARCHIVE_INPUT,
  QUOTED_REQUEST_INPUT,
  REQUEST_INPUT,
  STRUCTURED_READS,
  ROUTE_BLOCKS,
  UNANNOTATED_BOUND,
} from '../knowledge/sources.js';
import { braceFunctionAt, findExpressionArrows, findIndentFunctions } from './find-functions.js';
import { FLOW_LANGUAGES, type FlowLanguage } from './flow-language.js';
import type { FlowFunction, FlowNode, Span } from './flow-node.js';
import { maskCode } from './mask-code.js';
import { MaskedText } from './masked-text.js';
import { parseBraceStatements } from './parse-brace-statements.js';
import { parseIndentStatements } from './parse-indent-statements.js';

// Files larger than this (generated or minified code) are not parsed for flow.
const MAX_FLOW_FILE_CHARS = 60_000;

/** A file as its language's masker reads it: comments and string text blanked, and where comments are. */
export interface CodeView {
  language: FlowLanguage;
  masked: string;
  /** Each comment's start and end offsets, in order. */
  comments: readonly number[];
}

// The largest file masked to tell comments and strings from code (linear and quick); the flow
// parses only files up to MAX_FLOW_FILE_CHARS.
const MAX_MASKED_FILE_CHARS = 4_000_000;

/** Whether `readCodeView` would read the file (its language and size), without reading it. */
export function isMaskable(text: string, languages: readonly Language[]): boolean {
  return (
    text.length <= MAX_MASKED_FILE_CHARS && languages.some((l) => FLOW_LANGUAGES[l] !== undefined)
  );
}

/** The code view of a file, or null when its language is not read this way or it is too large. */
export function readCodeView(text: string, languages: readonly Language[]): CodeView | null {
  if (!isMaskable(text, languages)) return null;
  const language = languages.map((l) => FLOW_LANGUAGES[l]).find((l) => l !== undefined);
  if (language === undefined) return null;
  const comments: number[] = [];
  return { language, masked: maskCode(text, language.mask, comments), comments };
}

/** One file prepared for flow analysis: masked text, request reads, functions, parsed bodies. */
export class FlowFile {
  readonly masked: MaskedText;
  /** Request reads in the masked text, by start offset: where each ends, and whether it can only be a string. */
  readonly requestReads: ReadonlyMap<number, RequestRead>;
  readonly #bodies = new Map<FlowFunction | null, FlowNode[]>();
  // Brace languages find functions on demand (most files ask about one or two places).
  readonly #functionAtBrace = new Map<number, FlowFunction | null>();
  readonly #functionsByName = new Map<string, FlowFunction[]>();
  #indentFunctions: FlowFunction[] | null = null;
  #expressionArrows: FlowFunction[] | null = null;

  private constructor(
    readonly original: string,
    readonly language: FlowLanguage,
    masked: string,
  ) {
    this.masked = new MaskedText(masked);
    this.requestReads = findRequestReads(masked, language.language, original);
  }

  private get isBrace(): boolean {
    return this.language.mask.family === 'brace';
  }

  private indentFunctions(): FlowFunction[] {
    this.#indentFunctions ??= findIndentFunctions(this.masked, this.language.language === 'ruby');
    return this.#indentFunctions;
  }

  private expressionArrows(): FlowFunction[] {
    this.#expressionArrows ??= findExpressionArrows(this.masked);
    return this.#expressionArrows;
  }

  /** The function whose body opens at this `{`, or null. */
  functionAtBrace(open: number): FlowFunction | null {
    let fn = this.#functionAtBrace.get(open);
    if (fn === undefined) {
      fn = braceFunctionAt(this.masked, open);
      this.#functionAtBrace.set(open, fn);
    }
    return fn;
  }

  /** A flow view of a file, or null when its language is not analysed or it is too large. */
  static open(
    text: string,
    languages: readonly Language[],
    view: CodeView | null = readCodeView(text, languages),
  ): FlowFile | null {
    if (view === null || text.length > MAX_FLOW_FILE_CHARS) return null;
    return new FlowFile(text, view.language, view.masked);
  }

  /** The statements of a function's body, or of the whole file for `null`; parsed once. */
  statementsOf(fn: FlowFunction | null): FlowNode[] {
    let nodes = this.#bodies.get(fn);
    if (nodes === undefined) {
      const span: Span = fn === null ? { start: 0, end: this.original.length } : fn.body;
      if (fn?.isExpressionBody === true) nodes = [{ kind: 'simple', ...span }];
      else if (this.language.mask.family === 'brace') {
        nodes = parseBraceStatements(this.masked, span, this.language.language !== 'go');
      } else {
        nodes = parseIndentStatements(
          this.masked,
          span,
          this.language.language === 'ruby' ? 'ruby' : 'python',
        );
      }
      this.#bodies.set(fn, nodes);
    }
    return nodes;
  }

  /** The innermost function whose body holds an offset, or null at the top level. */
  functionAt(offset: number): FlowFunction | null {
    if (!this.isBrace) return innermost(this.indentFunctions(), offset);
    const arrow = innermost(this.expressionArrows(), offset);
    // Out through the enclosing braces, nearest first: the first that opens a function body.
    const text = this.masked.text;
    for (let at = offset - 1; at >= 0; at--) {
      const code = text.charCodeAt(at);
      if (code === 41 || code === 93 || code === 125) {
        const open = this.masked.openOf(at);
        if (open !== -1) at = open;
        continue;
      }
      if (code !== 123) continue;
      const fn = this.functionAtBrace(at);
      if (fn !== null) return arrow !== null && arrow.body.start > fn.body.start ? arrow : fn;
    }
    return arrow;
  }

  /** The function a call names, preferring one that takes as many arguments. */
  functionNamed(name: string, argumentCount: number): FlowFunction | undefined {
    let fallback: FlowFunction | undefined;
    for (const fn of this.functionsNamed(name)) {
      const count = splitTopLevel(this.masked, fn.params).filter(
        (p) => !/^\s*(?:self|cls)\s*$/.test(this.masked.slice(p.start, p.end)),
      ).length;
      if (count === argumentCount) return fn;
      fallback ??= fn;
    }
    return fallback;
  }

  private functionsNamed(name: string): FlowFunction[] {
    let found = this.#functionsByName.get(name);
    if (found !== undefined) return found;
    if (!this.isBrace) {
      found = this.indentFunctions().filter((fn) => fn.name === name);
    } else {
      found = this.expressionArrows().filter((fn) => fn.name === name);
      // Each place the name is written: a declaration has its body's `{` after its parameters.
      const text = this.masked.text;
      const pattern = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`, 'g');
      for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
        const brace = bodyBraceAfter(this.masked, match.index + name.length);
        if (brace === -1) continue;
        const fn = this.functionAtBrace(brace);
        if (fn !== null && fn.name === name && !found.includes(fn)) found.push(fn);
      }
    }
    this.#functionsByName.set(name, found);
    return found;
  }
}

function innermost(functions: readonly FlowFunction[], offset: number): FlowFunction | null {
  let best: FlowFunction | null = null;
  for (const fn of functions) {
    if (
      fn.body.start <= offset &&
      offset < fn.body.end &&
      (best === null || fn.body.start >= best.body.start)
    ) {
      best = fn;
    }
  }
  return best;
}

// After a name: `(params) ... {` or `= (params) => {` or `= function (params) {`; the `{`, or -1.
function bodyBraceAfter(masked: MaskedText, at: number): number {
  const text = masked.text;
  const head = /^\s*(?::[^=;{}()]*)?(?:=\s*(?:async\s*)?(?:function\b[^(]*)?)?(?=\()/.exec(
    text.slice(at, at + 200),
  );
  if (head === null) return -1;
  const open = at + head[0].length;
  const close = masked.closeOf(open);
  if (close >= text.length) return -1;
  const tail = /^\s*(?:(?::|throws)[^{;=]*)?(?:=>\s*)?\{/.exec(text.slice(close + 1, close + 300));
  return tail === null ? -1 : close + tail[0].length;
}

// Signs, besides a request read, that a file takes input from a framework: bound parameters,
// handlers that destructure their request, routed Python functions.
const FRAMEWORK_INPUT: Partial<Record<Language, RegExp>> = {
  js: /\}\s*:\s*(?:express\.)?Request\b|\(\s*\{[^{}]*\}\s*(?::[^,()]*)?,\s*(?:res|response|reply|next)\b/,
  python:
    /@\w+(?:\.\w+)*\.(?:route|get|post|put|delete|patch|api_route)\s*\(|\bdef\s+\w+\s*\(\s*request\b/,
  // A servlet may read its request through a wrapper (`new RequestWrapper(request).getParam(...)`).
  java: /@(?:RequestParam|PathVariable|RequestHeader|RequestBody|CookieValue|RequestPart|ModelAttribute|QueryParam|PathParam|FormParam|HeaderParam)\b|\bHttpServletRequest\b/,
  csharp: /\[From(?:Query|Body|Route|Form|Header)\b/,
};

/** Whether a file may take untrusted input at all: without it, no sink in it can see request data. */
export function mayReadUntrustedInput(text: string, language: Language): boolean {
  if (REQUEST_INPUT[language]?.test(text) === true) return true;
  if (FRAMEWORK_INPUT[language]?.test(text) === true) return true;
  const unannotated = UNANNOTATED_BOUND[language];
  if (unannotated?.route.test(text) === true) return true;
  if (unannotated?.targets?.some((target) => target.test(text)) === true) return true;
  if (ROUTE_BLOCKS[language]?.test(text) === true) return true;
  return ARCHIVE_INPUT[language]?.library.test(text) === true;
}

/** One read of request input: a parsed body or query may be an object, a header or route parameter is a string. */
export interface RequestRead {
  end: number;
  isStringOnly: boolean;
}

function findRequestReads(
  masked: string,
  language: Language,
  original: string,
): Map<number, RequestRead> {
  const reads = new Map<number, RequestRead>();
  const input = REQUEST_INPUT[language];
  const archive = ARCHIVE_INPUT[language];
  const sources = [
    input,
    archive !== undefined && archive.library.test(original) ? archive.reads : undefined,
  ];
  for (const source of sources) {
    if (source === undefined) continue;
    const global = new RegExp(source.source, 'g');
    for (let match = global.exec(masked); match !== null; match = global.exec(masked)) {
      const end = match.index + match[0].length;
      reads.set(receiverStart(masked, match.index), {
        end,
        isStringOnly: !(STRUCTURED_READS[language]?.test(match[0]) ?? false),
      });
      if (match[0].length === 0) global.lastIndex++;
    }
  }
  addQuotedReads(reads, masked, language, original);
  return reads;
}

// Reads named by a string's contents, found in the original text; kept where the callee's name is
// code in the masked text too (not inside a comment or another string).
function addQuotedReads(
  reads: Map<number, RequestRead>,
  masked: string,
  language: Language,
  original: string,
): void {
  const quoted = QUOTED_REQUEST_INPUT[language];
  if (quoted === undefined) return;
  const global = new RegExp(quoted.source, 'g');
  for (let match = global.exec(original); match !== null; match = global.exec(original)) {
    const name = /^[\w$]+/.exec(match[0])?.[0] ?? '';
    if (name === '' || masked.slice(match.index, match.index + name.length) !== name) continue;
    reads.set(match.index, { end: match.index + match[0].length, isStringOnly: true });
  }
}

// A read written as a method (`.getParameter(`) starts at its receiver: `request.getParameter(`.
function receiverStart(masked: string, at: number): number {
  if (!/^(?:\.|->|::)/.test(masked.slice(at, at + 2))) return at;
  let start = at;
  for (;;) {
    const previous = masked[start - 1] ?? '';
    const two = masked.slice(Math.max(0, start - 2), start);
    if (/[\w$.]/.test(previous)) start--;
    else if (two === '->' || two === '::') start -= 2;
    else if (previous === ')') {
      const open = new MaskedText(masked).openOf(start - 1, Math.max(0, start - 400));
      if (open === -1) return start;
      start = open;
    } else return start;
  }
}

/** The comma-separated parts of a span, at bracket depth zero (empty parts dropped). */
export function splitTopLevel(masked: MaskedText, span: Span): Span[] {
  const text = masked.text;
  const parts: Span[] = [];
  let from = span.start;
  for (let at = span.start; at <= span.end; at++) {
    const code = text[at];
    if (at < span.end && (code === '(' || code === '[' || code === '{')) {
      at = masked.closeOf(at, span.end);
      continue;
    }
    if (at === span.end || code === ',') {
      if (masked.slice(from, at).trim() !== '') parts.push({ start: from, end: at });
      from = at + 1;
    }
  }
  return parts;
}
