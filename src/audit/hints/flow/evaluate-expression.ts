import {
  COLLECTION_READS,
  LIST_FACTORIES,
  LIST_FACTORY_OWNERS,
  MAP_FACTORIES,
  TWO_KEY_GET,
  twoKeyName,
} from '../knowledge/collections.js';
import {
  ESCAPING_COMPILERS,
  ESCAPING_RENDERERS,
  RESPONSE_BUILDERS,
} from '../knowledge/responses.js';
import {
  CLEAN_RESULT_METHODS,
  NUMERIC_CAST,
  STRING_CAST,
  sanitisedKinds,
  RECEIVER_SANITISERS,
} from '../knowledge/sanitisers.js';
import { EXTERNAL_INPUT, REQUEST_GETTERS, REQUEST_OBJECTS } from '../knowledge/sources.js';
import {
  EXTERNAL_READS,
  MODULE_LOADERS,
  QUERY_RESULTS,
  RECORD_LOOKUPS,
} from '../knowledge/stored-data.js';
import { PATH_BUILDERS } from '../knowledge/file-apis.js';
import { splitTopLevel, type FlowFile, type RequestRead } from './flow-file.js';
import type { Span } from './flow-node.js';
import {
  CLEAN,
  DIRECT_INPUT,
  UNKNOWN,
  constantValue,
  joinAll,
  joinValues,
  listValue,
  mapValue,
  sanitised,
  SINK_KINDS,
  type FlowValue,
} from './flow-value.js';
import { foldConstant, type Constant } from './fold-constant.js';
import { allowListedName } from './read-condition.js';

/** The variables an expression can see, and same-file functions it can call. */
export interface FlowScope {
  lookup(name: string): FlowValue | undefined;
  /** What a same-file function returns for these arguments; undefined when no such function is known. */
  call(name: string, args: readonly FlowValue[], isMethod: boolean): FlowValue | undefined;
  /** Whether a same-file function of that name makes no call at all (it can only pass values through). */
  isPassThrough(name: string, argumentCount: number): boolean;
}

/** One link of a call chain: `name`, then optionally a call's arguments and index groups. */
interface ChainLink {
  name: string;
  nameEnd: number;
  call: Span | null;
  indexes: Span[];
  literal: Span | null;
}

const KEYWORDS = new Set([
  'new',
  'return',
  'typeof',
  'await',
  'async',
  'yield',
  'in',
  'of',
  'and',
  'or',
  'not',
  'is',
  'instanceof',
  'void',
  'delete',
  'throw',
  'echo',
  'print',
  'lambda',
  'if',
  'else',
  'then',
  'do',
  'end',
  'case',
  'when',
  'for',
  'while',
  'var',
  'let',
  'const',
  'final',
  'static',
  'unless',
  'puts',
  'super',
  'clone',
  'go',
  'defer',
  'func',
  'function',
  'def',
  'as',
  'from',
  'import',
  'select',
  'range',
]);
const NULL_WORDS =
  /^(?:null|undefined|None|nil|true|false|True|False|NULL|TRUE|FALSE|this|self|\$this|NaN|Infinity|iota)$/;
// The longest expression read as one value (a minified line is longer).
const MAX_EXPRESSION_CHARS = 4_000;
// A comparison at the top of an expression makes a boolean, which carries no text.
const COMPARISON = /===|!==|==|!=|=~|!~|<=|>=|\binstanceof\b|\bnot in\b|\bis not\b|<=>/;

/** Evaluates expressions of one file against a scope: what a sink sees, what a variable holds. */
export class ExpressionEvaluator {
  // What joins the links of a call chain; PHP's `.` joins strings instead.
  private readonly linkSeparator: RegExp;
  private readonly receiverKinds = new Map<string, number>();

  constructor(
    private readonly file: FlowFile,
    // Counts each evaluation against the file's budget (it throws when the budget is spent).
    private readonly onStep: () => void = () => undefined,
  ) {
    this.linkSeparator =
      file.language.language === 'php' ? /^(?:->|::)\s*/ : /^(?:\?\.|\.|->|::)\s*/;
  }

  evaluate(span: Span, scope: FlowScope): FlowValue {
    this.onStep();
    const { start, end } = this.trim(span);
    if (start >= end) return CLEAN;
    // Minified or generated expressions: too long to read as one value.
    if (end - start > MAX_EXPRESSION_CHARS) return UNKNOWN;
    const masked = this.file.masked;
    const text = masked.slice(start, end);
    if (
      text[0] === '(' &&
      masked.closeOf(start, end) === end - 1 &&
      !/=>|->/.test(masked.slice(end, end + 4))
    ) {
      const inner = { start: start + 1, end: end - 1 };
      const items =
        this.file.language.hasTupleLiterals === true ? splitTopLevel(masked, inner) : [];
      return items.length > 1
        ? listValue(items.map((item) => this.evaluate(item, scope)))
        : this.evaluate(inner, scope);
    }
    if (NUMERIC_CAST.test(text)) return CLEAN;
    const cast = /^\(\s*([\w.$]+)(?:<[^()]*>)?(?:\[\])?\s*\)\s*(?=[\w$(])/.exec(text);
    if (cast !== null) {
      const inner = this.evaluate({ start: start + cast[0].length, end }, scope);
      // A string cast (`(string) $x`) leaves text: no query operators, whatever else it holds.
      return STRING_CAST.test(cast[1] ?? '') ? sanitised(inner, SINK_KINDS.nosql) : inner;
    }
    // A TypeScript assertion (`x as string`, `x!`), read on the tail only.
    const tail = text.slice(-80);
    const typeAssertion = /\sas\s+[\w.$<>[\]|]+(?:\s*\|\s*[\w.$<>[\]]+)*$|!$/.exec(tail);
    if (typeAssertion !== null) {
      return this.evaluate({ start, end: end - tail.length + typeAssertion.index }, scope);
    }
    const ternary = this.splitTernary(start, end);
    if (ternary !== null) return this.evaluateTernary(ternary, scope);
    if (this.hasTopLevel(start, end, COMPARISON) || /^\s*!(?!=)/.test(text)) return CLEAN;
    const literal = this.literalOf(start, end, scope);
    if (literal !== undefined) return literal;
    const value = this.evaluateParts(start, end, scope);
    // Text built with a string literal is a string, whatever it holds: no query operators.
    return this.hasTopLevel(start, end, /["'`]/) ? sanitised(value, SINK_KINDS.nosql) : value;
  }

  /** A condition folded to a constant, when it only involves literals and known constants. */
  foldCondition(span: Span, scope: FlowScope): Constant | undefined {
    return foldConstant({
      masked: this.file.masked.slice(span.start, span.end),
      original: this.file.original.slice(span.start, span.end),
      constantOf: (name) => scope.lookup(name)?.constant,
    });
  }

  private trim(span: Span): Span {
    const masked = this.file.masked;
    const start = masked.skipSpace(span.start, span.end);
    const end = masked.lastNonSpace(span.end, start) + 1;
    return { start, end: Math.max(start, end) };
  }

  // Whether a pattern matches the expression outside every bracket.
  private hasTopLevel(start: number, end: number, pattern: RegExp): boolean {
    const masked = this.file.masked;
    let flat = '';
    for (let at = start; at < end; at++) {
      const code = masked.text[at] ?? '';
      if (code === '(' || code === '[' || code === '{') {
        at = masked.closeOf(at, end);
        flat += ' ';
        continue;
      }
      flat += code;
    }
    // `=>` arrows and `->` are not comparisons; neither is a generic `<T>`.
    return pattern.test(flat.replace(/=>|->/g, '  '));
  }

  private splitTernary(
    start: number,
    end: number,
  ): { condition: Span; then: Span; otherwise: Span; isPython: boolean } | null {
    const masked = this.file.masked;
    const text = masked.text;
    let question = -1;
    let nested = 0;
    for (let at = start; at < end; at++) {
      const code = text[at];
      if (code === '(' || code === '[' || code === '{') {
        at = masked.closeOf(at, end);
        continue;
      }
      if (code === '?') {
        const next = text[at + 1];
        const previous = text[at - 1];
        if (
          next === '.' ||
          next === '?' ||
          next === ':' ||
          previous === '?' ||
          next === '=' ||
          (/[\w)\]]/.test(next ?? '') && previous !== ' ')
        )
          continue;
        if (question === -1) question = at;
        else nested++;
      } else if (code === ':' && question !== -1 && text[at + 1] !== ':' && text[at - 1] !== ':') {
        if (nested > 0) {
          nested--;
          continue;
        }
        return {
          condition: { start, end: question },
          then: { start: question + 1, end: at },
          otherwise: { start: at + 1, end },
          isPython: false,
        };
      }
    }
    const flat = text.slice(start, end);
    const pythonIf = / if /.exec(flat);
    if (pythonIf !== null && this.isTopLevel(start, start + pythonIf.index, end)) {
      const elseAt = flat.indexOf(' else ', pythonIf.index);
      if (elseAt !== -1 && this.isTopLevel(start, start + elseAt, end)) {
        return {
          condition: { start: start + pythonIf.index + 4, end: start + elseAt },
          then: { start, end: start + pythonIf.index },
          otherwise: { start: start + elseAt + 6, end },
          isPython: true,
        };
      }
    }
    return null;
  }

  private isTopLevel(start: number, at: number, end: number): boolean {
    const masked = this.file.masked;
    for (let cursor = start; cursor < end; cursor++) {
      const code = masked.text[cursor];
      if (code === '(' || code === '[' || code === '{') {
        const close = masked.closeOf(cursor, end);
        if (at > cursor && at < close) return false;
        cursor = close;
      }
    }
    return true;
  }

  private evaluateTernary(
    parts: { condition: Span; then: Span; otherwise: Span },
    scope: FlowScope,
  ): FlowValue {
    const folded = this.foldCondition(parts.condition, scope);
    if (folded !== undefined) return this.evaluate(folded ? parts.then : parts.otherwise, scope);
    const then = this.evaluate(parts.then, scope);
    const otherwise = this.evaluate(parts.otherwise, scope);
    // `ALLOWED.includes(x) ? x : 'default'`: the branch that repeats the tested value is allow-listed.
    const listed = allowListedName(
      this.file.masked.slice(parts.condition.start, parts.condition.end),
    );
    const thenText = this.file.masked.slice(parts.then.start, parts.then.end).trim();
    const otherwiseText = this.file.masked.slice(parts.otherwise.start, parts.otherwise.end).trim();
    if (listed !== null && listed.isTrueWhenListed && listed.name === thenText) return otherwise;
    if (listed !== null && !listed.isTrueWhenListed && listed.name === otherwiseText) return then;
    return joinValues(then, otherwise);
  }

  // A literal, a list or a map written out; undefined when the expression is something else.
  private literalOf(start: number, end: number, scope: FlowScope): FlowValue | undefined {
    const masked = this.file.masked;
    const text = masked.slice(start, end);
    const first = text[0];
    if ((first === '[' || first === '{') && masked.closeOf(start, end) === end - 1) {
      return this.containerLiteral({ start: start + 1, end: end - 1 }, first === '{', scope);
    }
    if (
      /^(?:[\s+,-]|"\s*"|'\s*'|`\s*`|\d[\d_]*(?:\.\d+)?[lLfFdD]?|\.(?!\d))*$/.test(text) &&
      /["'`\d]/.test(text)
    ) {
      const folded = foldConstant({
        masked: text,
        original: this.file.original.slice(start, end),
        constantOf: () => undefined,
      });
      return folded === undefined ? CLEAN : constantValue(folded);
    }
    return undefined;
  }

  private containerLiteral(inner: Span, isBrace: boolean, scope: FlowScope): FlowValue {
    const masked = this.file.masked;
    const elements = splitTopLevel(masked, inner);
    // `{}`: an empty object, dict or hash, filled by key later.
    if (isBrace && elements.length === 0) return mapValue(new Map());
    const keyed = elements.map((element) => this.keyValueOf(element));
    // `{ key: value }`, and PHP's `['key' => value]`.
    if (keyed.some((pair) => pair !== null && (isBrace || pair.isArrow))) {
      const entries = new Map<string, FlowValue>();
      for (const [index, element] of elements.entries()) {
        const pair = keyed[index];
        if (pair !== null && pair !== undefined) {
          entries.set(
            pair.key ?? '*',
            joinValues(entries.get(pair.key ?? '*') ?? CLEAN, this.evaluate(pair.value, scope)),
          );
          continue;
        }
        const shorthand = masked
          .slice(element.start, element.end)
          .trim()
          .replace(/^\.\.\./, '');
        entries.set(/^[\w$]+$/.test(shorthand) ? shorthand : '*', this.evaluate(element, scope));
      }
      return mapValue(entries);
    }
    return listValue(elements.map((element) => this.evaluate(element, scope)));
  }

  // `key: value`, `"key": value`, `'key' => value`: the constant key (null when computed) and the value.
  private keyValueOf(element: Span): { key: string | null; value: Span; isArrow: boolean } | null {
    const masked = this.file.masked;
    const text = masked.slice(element.start, element.end);
    const separator = /^\s*(?:(["'])\s*\1|[\w$]+|\[[^\]]*\]|:\w+)\s*(=>|:(?!:))/.exec(text);
    if (separator === null) return null;
    const keyText = this.file.original
      .slice(element.start, element.start + separator[0].length - (separator[2] ?? '').length)
      .trim();
    const key = /^(["'])(.*)\1$/.exec(keyText)?.[2] ?? /^:?([\w$]+)$/.exec(keyText)?.[1] ?? null;
    return {
      key,
      value: { start: element.start + separator[0].length, end: element.end },
      isArrow: separator[2] === '=>',
    };
  }

  private evaluateParts(start: number, end: number, scope: FlowScope): FlowValue {
    const masked = this.file.masked;
    const text = masked.text;
    const parts: FlowValue[] = [];
    let at = start;
    while (at < end) {
      const skipTo = this.functionLiteralEnd(at, end);
      if (skipTo > at) {
        at = skipTo;
        continue;
      }
      const read = this.file.requestReads.get(at);
      if (read !== undefined) {
        parts.push(this.afterRequestRead(read, end));
        at = this.chainEnd(this.afterIndex(read, end), end);
        continue;
      }
      const code = text[at] ?? '';
      // A string prefix (`f"..."`, `rb'...'`) is part of the literal, not a name.
      const prefix = /^[rRbBuUfF]{1,2}(?=["'])/.exec(text.slice(at, at + 3));
      if (prefix !== null && !/[\w$]/.test(text[at - 1] ?? '')) {
        at += prefix[0].length;
        continue;
      }
      if (
        /[$@A-Za-z_]/.test(code) &&
        !/[\w$]/.test(text[at - 1] ?? '') &&
        !this.isPropertyStart(at)
      ) {
        const chain = this.readChain(at, end);
        parts.push(this.evaluateChain(at, chain, scope));
        at = Math.max(at + 1, chain.end);
        continue;
      }
      if (code === '[' || code === '{') {
        const close = masked.closeOf(at, end);
        if (!/[\w$)\]]\s*$/.test(text.slice(Math.max(start, at - 3), at))) {
          parts.push(this.containerLiteral({ start: at + 1, end: close }, code === '{', scope));
          at = close + 1;
          continue;
        }
      }
      at++;
    }
    return joinAll(parts);
  }

  // A request read, and methods called on it: `.length` of a request value is a number.
  // A function literal starting here (`(a) => {...}`, `x => {...}`, `function (...) {...}`): where
  // it ends, or -1. Its body runs later, not as part of this value.
  private functionLiteralEnd(at: number, end: number): number {
    const masked = this.file.masked;
    const text = masked.text;
    const code = text[at];
    let arrowAt = -1;
    if (code === '(') {
      const close = masked.closeOf(at, end);
      const arrow = /^\s*(?::[^=;(){}]*)?(?:=>|->)/.exec(text.slice(close + 1, close + 80));
      if (arrow === null) return -1;
      arrowAt = close + 1 + arrow[0].length;
    } else if ((code === '=' && text[at + 1] === '>') || (code === '-' && text[at + 1] === '>')) {
      arrowAt = at + 2;
    } else if (
      code === 'f' &&
      /^function\b/.test(text.slice(at, at + 9)) &&
      !/[\w$.]/.test(text[at - 1] ?? '')
    ) {
      const brace = text.indexOf('{', at);
      return brace === -1 || brace >= end ? -1 : masked.closeOf(brace, end) + 1;
    } else return -1;
    const body = masked.skipSpace(arrowAt, end);
    // A block body is skipped; an expression body is read as part of the value.
    return text[body] === '{' ? masked.closeOf(body, end) + 1 : arrowAt;
  }

  // A string (a header, a route parameter) cannot smuggle query operators into a NoSQL filter.
  private afterRequestRead(read: RequestRead, end: number): FlowValue {
    const from = this.afterIndex(read, end);
    const rest = this.file.masked.slice(from, Math.min(end, from + 200));
    const method = /^(?:\s*\([^()]*\))?(?:\s*\[[^\]]*\])*\s*(?:\?\.|\.)\s*([\w$]+)/.exec(rest);
    if (method?.[1] !== undefined && CLEAN_RESULT_METHODS.test(method[1])) return CLEAN;
    // A sanitising method called on the read (`params[:n].to_i`, `$request->input('n').intval()`).
    const isCalled =
      this.file.language.callsWithoutParentheses === true ||
      /^\s*\(/.test(rest.slice(method?.[0].length ?? 0));
    if (method?.[1] !== undefined && isCalled) {
      const kinds = sanitisedKinds(`.${method[1]}`, this.file.language.language);
      if (kinds !== 0) return sanitised(DIRECT_INPUT, kinds);
    }
    return read.isStringOnly ? sanitised(DIRECT_INPUT, SINK_KINDS.nosql) : DIRECT_INPUT;
  }

  // What `name.method()` cleans for when the file makes `name` a type whose method cuts it (a `File`'s leaf).
  private receiverSanitisedKinds(name: string, method: string): number {
    const key = `${name}.${method}`;
    const known = this.receiverKinds.get(key);
    if (known !== undefined) return known;
    let kinds = 0;
    const escaped = name.replace(/[$]/g, '\\$');
    for (const row of RECEIVER_SANITISERS[this.file.language.language] ?? []) {
      if (!row.methods.test(method)) continue;
      const made = new RegExp(
        String.raw`(?:${row.declaredAs.source})\s+${escaped}(?![\w$])(?!\s*\()|(?<![\w$.])${escaped}\s*=\s*(?:${row.assignedFrom.source})`,
      );
      if (made.test(this.file.masked.text)) kinds |= row.kinds;
    }
    this.receiverKinds.set(key, kinds);
    return kinds;
  }

  // Where a request read ends: past the key of a read that ends inside its index (`params[`).
  private afterIndex(read: RequestRead, end: number): number {
    const masked = this.file.masked;
    if (masked.text[read.end - 1] !== '[') return read.end;
    return Math.min(end, masked.closeOf(read.end - 1, end) + 1);
  }

  private chainEnd(at: number, end: number): number {
    const masked = this.file.masked;
    let cursor = at;
    for (;;) {
      const next = masked.skipSpace(cursor, end);
      const code = masked.text[next];
      if (code === '(' || code === '[') {
        cursor = masked.closeOf(next, end) + 1;
        continue;
      }
      const separator = this.linkSeparator.exec(masked.slice(next, Math.min(end, next + 4)));
      const dot =
        separator === null
          ? null
          : /^[\w$]+/.exec(masked.slice(next + separator[0].length, Math.min(end, next + 80)));
      if (dot === null || separator === null) return cursor;
      cursor = next + separator[0].length + dot[0].length;
    }
  }

  // `obj.name`, `obj->name`, `Cls::name`: a property, read as part of its receiver's chain.
  private isPropertyStart(at: number): boolean {
    const before = this.file.masked.slice(Math.max(0, at - 3), at);
    if (/->$|::$/.test(before)) return true;
    // PHP's `.` joins strings; a spread `...name` is a value.
    return /[^.]\.$/.test(before) && this.file.language.language !== 'php';
  }

  private readChain(start: number, end: number): { links: ChainLink[]; end: number } {
    const masked = this.file.masked;
    const text = masked.text;
    const links: ChainLink[] = [];
    let at = start;
    for (;;) {
      const name = /^[$@]?[A-Za-z_][\w$]*[?!]?/.exec(text.slice(at, Math.min(end, at + 80)))?.[0];
      if (name === undefined) break;
      const link: ChainLink = {
        name,
        nameEnd: at + name.length,
        call: null,
        indexes: [],
        literal: null,
      };
      at += name.length;
      at = this.skipGenerics(at, end);
      let next = masked.skipSpace(at, end);
      if (text[next] === '(' && this.functionLiteralEnd(next, end) === -1) {
        const close = masked.closeOf(next, end);
        link.call = { start: next + 1, end: close };
        at = close + 1;
        next = masked.skipSpace(at, end);
      }
      while (text[next] === '[') {
        const close = masked.closeOf(next, end);
        link.indexes.push({ start: next + 1, end: close });
        at = close + 1;
        next = masked.skipSpace(at, end);
      }
      // Go composite literals and Java array initialisers: `http.Cookie{...}`, `String[] {...}`.
      if (
        text[next] === '{' &&
        (link.call === null || name === 'new') &&
        /^[A-Z\]]/.test(text[at - 1] === ']' ? ']' : name)
      ) {
        const close = masked.closeOf(next, end);
        link.literal = { start: next + 1, end: close };
        at = close + 1;
        links.push(link);
        break;
      }
      links.push(link);
      // `new Type(...)`: the constructor call belongs to the same chain.
      if (name === 'new' && link.call === null && /[$A-Za-z_]/.test(text[next] ?? '')) {
        at = next;
        continue;
      }
      const dot = this.linkSeparator.exec(text.slice(next, Math.min(end, next + 4)));
      if (dot === null || !/[$@A-Za-z_]/.test(text[next + dot[0].length] ?? '')) break;
      at = next + dot[0].length;
    }
    return { links, end: at };
  }

  // `<String, Object>` after a type name, when a call or initialiser follows it.
  private skipGenerics(at: number, end: number): number {
    const text = this.file.masked.text;
    if (text[at] !== '<') return at;
    let depth = 0;
    for (let cursor = at; cursor < Math.min(end, at + 200); cursor++) {
      const code = text[cursor] ?? '';
      if (code === '<') depth++;
      else if (code === '>') {
        depth--;
        if (depth === 0)
          return /^\s*[([{]/.test(text.slice(cursor + 1, cursor + 3)) ? cursor + 1 : at;
      } else if (!/[\w\s,.?[\]$]/.test(code)) return at;
    }
    return at;
  }

  private evaluateChain(start: number, chain: { links: ChainLink[] }, scope: FlowScope): FlowValue {
    const links = chain.links;
    let index = 0;
    while (
      links[index]?.name === 'new' ||
      (KEYWORDS.has(links[index]?.name ?? '') &&
        links[index]?.call === null &&
        links.length > index + 1)
    )
      index++;
    const isConstruction = index > 0 && links[index - 1]?.name === 'new';
    // `new java.util.HashMap<>()`: the constructor is the first link that is called.
    const constructorAt = isConstruction
      ? links.findIndex((link, at) => at >= index && link.call !== null)
      : -1;
    const head = links[index];
    if (head === undefined) return CLEAN;
    let value: FlowValue | null = null;
    let consumed = index;
    // A sanitiser imported into a variable (`const escapeHtml = require(...)`) still sanitises.
    const isSanitiserCall =
      head.call !== null &&
      sanitisedKinds(head.name, this.file.language.language) !== 0 &&
      links.length === index + 1;
    const tracked = isSanitiserCall ? null : this.longestTracked(links, index, scope);
    if (tracked !== null) {
      value = tracked.value;
      consumed = tracked.next;
    } else if (
      EXTERNAL_INPUT.test(
        links
          .slice(index, index + 2)
          .map((link) => link.name)
          .join('.'),
      )
    ) {
      // Command-line arguments, the environment, the browser's location: outside data, not constants.
      value = UNKNOWN;
      consumed = index + 1;
    } else if (
      REQUEST_OBJECTS[this.file.language.language]?.test(head.name) === true &&
      head.call === null &&
      links.length === index + 1
    ) {
      // The request object passed whole (`new Wrapper(request)`): its getters read input.
      return { ...CLEAN, wrapsRequest: true };
    } else if (
      head.call === null &&
      head.literal === null &&
      links.length === index + 1 &&
      head.indexes.length === 0
    ) {
      if (NULL_WORDS.test(head.name) || KEYWORDS.has(head.name)) return CLEAN;
      // A keyword argument's name (`shell=True`): not a read.
      if (/^\s*=(?![=>])/.test(this.file.masked.slice(head.nameEnd, head.nameEnd + 3)))
        return CLEAN;
      return UNKNOWN;
    }
    for (let position = consumed; position < links.length; position++) {
      const link = links[position];
      if (link === undefined) break;
      // A module or object this file does not track (`os.path`, `config`): not data until called.
      if (
        value === null &&
        link.call === null &&
        link.literal === null &&
        position < links.length - 1
      ) {
        continue;
      }
      value = this.applyLink(
        start,
        link,
        position,
        value,
        links,
        position === constructorAt,
        scope,
      );
    }
    return value ?? CLEAN;
  }

  // The longest dotted prefix of the chain that names a tracked variable (`this.name`, `params`).
  private longestTracked(
    links: readonly ChainLink[],
    from: number,
    scope: FlowScope,
  ): { value: FlowValue; next: number } | null {
    let name = '';
    let found: { value: FlowValue; next: number } | null = null;
    for (let position = from; position < links.length; position++) {
      const link = links[position];
      if (link === undefined) break;
      name = name === '' ? link.name : `${name}.${link.name}`;
      const stored = scope.lookup(name);
      if (stored !== undefined) {
        // Taint read straight from the request is reported as coming through this variable.
        const value =
          stored.taint === 'tainted' && stored.via === undefined
            ? { ...stored, via: name }
            : stored;
        found = { value: this.indexInto(value, link.indexes, scope), next: position + 1 };
        if (link.call !== null) {
          // `name(...)` where `name` is a variable holding a function: its value is unknown,
          // unless it is an escaping template, whose page is its own text.
          found = {
            value:
              stored.isEscapingTemplate === true
                ? { taint: stored.taint, cleanFor: stored.cleanFor }
                : joinValues(UNKNOWN, this.evaluate(link.call, scope)),
            next: position + 1,
          };
        }
      }
      if (link.call !== null || link.indexes.length > 0) break;
    }
    return found;
  }

  private applyLink(
    start: number,
    link: ChainLink,
    position: number,
    receiver: FlowValue | null,
    links: readonly ChainLink[],
    isConstructor: boolean,
    scope: FlowScope,
  ): FlowValue {
    const masked = this.file.masked;
    if (link.literal !== null) {
      return this.indexInto(
        this.containerLiteral(
          link.literal,
          !/\]$/.test(masked.slice(link.nameEnd, link.literal.start - 1).trim()) ||
            /^map$/.test(link.name),
          scope,
        ),
        link.indexes,
        scope,
      );
    }
    if (link.call === null) {
      // A property: an entry of a map built here, a number, or the receiver's own taint.
      if (receiver === null) return this.indexInto(UNKNOWN, link.indexes, scope);
      if (CLEAN_RESULT_METHODS.test(link.name)) return CLEAN;
      // `params[:n].to_i` calls `to_i` where a method needs no parentheses: a sanitiser's name is its call.
      const bareKinds = this.file.language.callsWithoutParentheses
        ? sanitisedKinds(
            masked.slice(start, link.nameEnd).replace(/\s+/g, ''),
            this.file.language.language,
          )
        : 0;
      if (bareKinds !== 0)
        return this.indexInto(sanitised(receiver, bareKinds), link.indexes, scope);
      const entry = receiver.entries?.get(link.name);
      return this.indexInto(entry ?? stripContainer(receiver), link.indexes, scope);
    }
    const args = splitTopLevel(masked, link.call).map((arg) => this.evaluate(arg, scope));
    const argsValue = joinAll(args);
    const callee = masked.slice(start, link.nameEnd).replace(/\s+/g, '');
    let kinds = sanitisedKinds(callee, this.file.language.language);
    const owner = links[0];
    if (kinds === 0 && position === 1 && owner?.call === null && owner.indexes.length === 0)
      kinds = this.receiverSanitisedKinds(owner.name, link.name);
    // A sanitiser defined in this file that calls nothing (`escapeHtml(s) { return s; }`) only
    // borrows the name: its body decides.
    if (
      kinds !== 0 &&
      position === 0 &&
      receiver === null &&
      scope.isPassThrough(link.name, args.length)
    ) {
      kinds = 0;
    }
    let result: FlowValue;
    // A file's or a remote server's answer is stored data, not the name or URL that chose it.
    if (kinds === 0 && EXTERNAL_READS.test(callee))
      return this.indexInto(UNKNOWN, link.indexes, scope);
    // A compiled template keeps its source's taint: a template the request wrote is its page.
    if (kinds === 0 && ESCAPING_COMPILERS[this.file.language.language]?.test(callee) === true)
      return { ...stripContainer(args[0] ?? CLEAN), isEscapingTemplate: true };
    // A path built from names (`Paths.get(root, name)`) is those names, not a record looked up by them.
    if (kinds === 0 && PATH_BUILDERS.test(callee))
      return this.indexInto(argsValue, link.indexes, scope);
    if (kinds === 0 && ESCAPING_RENDERERS[this.file.language.language]?.test(link.name) === true) {
      const template = receiver !== null ? stripContainer(receiver) : (args[0] ?? CLEAN);
      return this.indexInto(template, link.indexes, scope);
    }
    if (kinds === 0 && receiver === null && RESPONSE_BUILDERS.test(callee)) {
      // The page is the body; the status and headers that travel with it are not.
      const body = args[0];
      return this.indexInto(body?.items?.[0] ?? body ?? CLEAN, link.indexes, scope);
    }
    if (kinds !== 0) {
      result = sanitised(args.length > 0 ? argsValue : (receiver ?? CLEAN), kinds);
    } else if (receiver !== null && position > 0 && CLEAN_RESULT_METHODS.test(link.name)) {
      result = CLEAN;
    } else if (receiver?.wrapsRequest === true && receiver.taint !== 'tainted') {
      result = REQUEST_GETTERS.test(link.name) ? { ...DIRECT_INPUT } : CLEAN;
    } else if (
      receiver !== null &&
      (receiver.items !== undefined || receiver.entries !== undefined) &&
      COLLECTION_READS.test(link.name)
    ) {
      const [first, second] = [args[0]?.constant, args[1]?.constant];
      const twoKey =
        TWO_KEY_GET.test(link.name) && first !== undefined && second !== undefined
          ? receiver.entries?.get(twoKeyName(first, second))
          : undefined;
      result = twoKey ?? this.elementOf(receiver, args[0], args[1]);
    } else if (receiver?.constant !== undefined && typeof receiver.constant === 'string') {
      const folded = this.foldCall(receiver.constant, link, scope);
      result = folded === undefined ? joinValues(receiver, argsValue) : constantValue(folded);
    } else if (isConstructor && LIST_FACTORIES.test(link.name)) {
      result =
        args.length === 1 && args[0]?.items !== undefined
          ? (args[0] ?? CLEAN)
          : listValue(
              args.length === 1 && /^\d+$/.test(masked.slice(link.call.start, link.call.end).trim())
                ? []
                : args,
            );
    } else if (isConstructor && MAP_FACTORIES.test(link.name)) {
      result = args[0]?.entries !== undefined ? (args[0] ?? CLEAN) : mapValue(new Map());
    } else if (
      !isConstructor &&
      position > 0 &&
      LIST_FACTORIES.test(link.name) &&
      LIST_FACTORY_OWNERS.test(links[position - 1]?.name ?? '')
    ) {
      result = listValue(args);
    } else if (
      !isConstructor &&
      MAP_FACTORIES.test(link.name) &&
      // `dict()`, or a class called without `new` (`configparser.ConfigParser()`).
      (position === 0 || /^[A-Z]/.test(link.name))
    ) {
      result = mapValue(new Map());
    } else {
      const isMethod = position > 0;
      const isKeyedGet = link.name === 'get' && args.length === 1;
      const known =
        receiver === null || isMethod ? scope.call(link.name, args, isMethod) : undefined;
      if (known !== undefined && (receiver === null || receiver.taint !== 'tainted'))
        result = known;
      // A lookup keyed by a value (`Doc.find(params[:id])`, `users.get(token)` on a store the
      // request did not fill) returns a stored record, not the key.
      else if (receiver === null)
        result =
          args.length === 0 ||
          RECORD_LOOKUPS.test(link.name) ||
          QUERY_RESULTS.test(link.name) ||
          (isMethod && isKeyedGet) ||
          // A module (`require('./lib')`) is not the string that named it.
          (!isMethod && MODULE_LOADERS.test(link.name))
            ? UNKNOWN
            : argsValue;
      else if (
        receiver.taint !== 'tainted' &&
        (RECORD_LOOKUPS.test(link.name) || QUERY_RESULTS.test(link.name) || isKeyedGet)
      )
        result = stripContainer(receiver);
      else result = joinValues(stripContainer(receiver), argsValue);
    }
    return this.indexInto(result, link.indexes, scope);
  }

  // `guess.charAt(1)` on a known string: the folded constant, or undefined.
  private foldCall(constant: string, link: ChainLink, scope: FlowScope): Constant | undefined {
    if (link.call === null) return undefined;
    const receiver = '__receiver__';
    const call = (args: string): string => `${receiver}.${link.name}(${args})`;
    return foldConstant({
      masked: call(this.file.masked.slice(link.call.start, link.call.end)),
      original: call(this.file.original.slice(link.call.start, link.call.end)),
      constantOf: (name) => (name === receiver ? constant : scope.lookup(name)?.constant),
    });
  }

  private indexInto(value: FlowValue, indexes: readonly Span[], scope: FlowScope): FlowValue {
    let result = value;
    for (const index of indexes) {
      if (this.file.masked.slice(index.start, index.end).trim() === '') continue;
      result = this.elementOf(result, this.evaluate(index, scope), undefined);
    }
    return result;
  }

  // A list item or map entry by a constant key; with an unknown key, any of them.
  private elementOf(
    container: FlowValue,
    key: FlowValue | undefined,
    fallback: FlowValue | undefined,
  ): FlowValue {
    let element: FlowValue;
    const constant = key?.constant;
    if (container.items !== undefined) {
      element =
        typeof constant === 'number'
          ? (container.items[constant < 0 ? container.items.length + constant : constant] ?? CLEAN)
          : stripContainer(container);
    } else if (container.entries !== undefined) {
      element =
        constant !== undefined
          ? (container.entries.get(String(constant)) ?? container.entries.get('*') ?? CLEAN)
          : stripContainer(container);
    } else {
      element = stripContainer(container);
    }
    return fallback === undefined ? element : joinValues(element, fallback);
  }
}

function stripContainer(value: FlowValue): FlowValue {
  if (value.items === undefined && value.entries === undefined) return value;
  const { items: _items, entries: _entries, ...rest } = value;
  return rest;
}
