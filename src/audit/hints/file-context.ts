import type { HintCategory } from '../types.js';
import type { Language } from './detect-languages.js';
import { escapeRegExp } from './escape-reg-exp.js';
import { CATEGORY_SINK_KINDS } from './flow/category-sink-kinds.js';
import { FlowAnalysis } from './flow/flow-analysis.js';
import {
  isMaskable,
  mayReadUntrustedInput,
  readCodeView,
  type CodeView,
} from './flow/flow-file.js';
import { taintFor, type Taint } from './flow/flow-value.js';
import { argumentList, commandOf } from './flow/command-value.js';
import { previousLine, sinkArgumentSpans, type SinkArgument } from './flow/sink-argument.js';
import { isOutsideQuotes } from './is-outside-quotes.js';
import { LineMap } from './line-map.js';
import { findLogicalLine, mayBeWrapped, type LogicalLine } from './logical-line.js';
import { ROUTE_HANDLERS } from './knowledge/responses.js';
import { BINDING_ANNOTATION, BOUND_PARAMETER, REQUEST_INPUT } from './knowledge/sources.js';
import { isRouteTarget } from './flow/function-parameters.js';
import { findRequestDerivedNames } from './request-input.js';

// How a comment line starts, per language.
const COMMENT_LINE_PREFIXES: Record<Language, readonly string[]> = {
  js: ['//', '/*', '*'],
  java: ['//', '/*', '*'],
  go: ['//', '/*', '*'],
  csharp: ['//', '/*', '*'],
  php: ['//', '#', '/*', '*'],
  python: ['#'],
  ruby: ['#'],
  perl: ['#'],
  shell: ['#'],
  workflow: ['#'],
  template: ['<!--', '{{!', '{#', '<%#', '@*'],
};
// What starts a comment after code on the same line.
const TRAILING_COMMENT_MARKERS: Record<Language, string | undefined> = {
  js: '//',
  java: '//',
  go: '//',
  csharp: '//',
  php: '//',
  python: '#',
  ruby: '#',
  perl: '#',
  shell: '#',
  workflow: '#',
  template: undefined,
};

// How far before a sink a variable assigned from request input is looked for: the handler around it.
const DERIVED_NAME_LOOKBACK_CHARS = 4_096;

/** Where request input reaches a sink: directly, or through a variable assigned from it. */
export interface RequestInputUse {
  via: string | undefined;
}

/** What the in-file data flow says a sink sees. */
export interface SinkVerdict {
  taint: Taint;
  /** The variable request input arrived through; absent when the sink reads the request directly. */
  via: string | undefined;
}

/** One file being indexed, with the lazily computed views the rules share. */
export class FileContext {
  readonly path: string;
  readonly text: string;
  readonly lines: LineMap;
  readonly #commentPrefixes: readonly string[];
  readonly #trailingMarkers: readonly string[];
  readonly #fileTests = new Map<RegExp, boolean>();
  /** The language families the file belongs to. */
  readonly languages: readonly Language[];
  #flow: FlowAnalysis | null | undefined;
  readonly #mayReadInput = new Map<Language, boolean>();
  readonly #logicalLines = new Map<number, LogicalLine | null>();
  #codeView: CodeView | null | undefined;
  #blockMarks: { opens: number[]; closes: number[] } | undefined;

  constructor(path: string, text: string, languages: readonly Language[]) {
    this.path = path;
    this.text = text;
    this.languages = languages;
    this.lines = new LineMap(text);
    const syntax = commentSyntaxOf(languages);
    this.#commentPrefixes = syntax.linePrefixes;
    this.#trailingMarkers = syntax.trailingMarkers;
  }

  /** Whether the file holds a pattern anywhere (computed once per pattern). */
  holds(pattern: RegExp): boolean {
    let found = this.#fileTests.get(pattern);
    if (found === undefined) {
      found = pattern.test(this.text);
      this.#fileTests.set(pattern, found);
    }
    return found;
  }

  /** Whether the line starting at an offset is a comment line in one of the file's languages. */
  isCommentLine(lineStart: number): boolean {
    const text = this.text;
    let at = lineStart;
    for (let code = text.charCodeAt(at); code === 32 || code === 9; code = text.charCodeAt(at)) {
      at += 1;
    }
    const prefix = this.#commentPrefixes.find((candidate) => text.startsWith(candidate, at));
    if (prefix === undefined) return false;
    // `/* old */ run(x)`: a block comment closed on its own line leaves code after it.
    if (prefix === '/*') {
      const lineEnd = text.indexOf('\n', at);
      const close = text.indexOf('*/', at + 2);
      if (close !== -1 && (lineEnd === -1 || close < lineEnd)) {
        const rest = text.slice(close + 2, lineEnd === -1 ? text.length : lineEnd).trim();
        return rest === '' || this.#commentPrefixes.some((other) => rest.startsWith(other));
      }
    }
    return true;
  }

  /**
   * Whether the file's language is read by a masker (so `isCodeAt` and `isInBlockComment` answer), known
   * without reading the file: a line that only looks like a comment (`* eval(x)` continuing a
   * product) is then judged where a rule matches it.
   */
  get isMasked(): boolean {
    if (this.#codeView !== undefined) return this.#codeView !== null;
    return isMaskable(this.text, this.languages);
  }

  // The file as its language's masker reads it (null for languages it does not read, or huge files).
  #view(): CodeView | null {
    if (this.#codeView === undefined) this.#codeView = readCodeView(this.text, this.languages);
    return this.#codeView;
  }

  /**
   * Whether an offset lies in a `/* … *\/` block that opens its own line (code kept as a comment), by
   * the masker of the file's language; false for languages it does not read.
   */
  isInBlockComment(offset: number): boolean {
    // Without a `/*` after the last `*/` before it, no block comment can hold the offset: most hits
    // are answered without reading the file.
    const marks = (this.#blockMarks ??= findBlockMarks(this.text));
    const open = marks.opens[lastAtOrBefore(marks.opens, offset)] ?? -1;
    if (open <= (marks.closes[lastAtOrBefore(marks.closes, offset)] ?? -1)) return false;
    const start = this.#commentAround(offset);
    if (start === null || !this.text.startsWith('/*', start)) return false;
    for (let at = start - 1; at >= 0; at--) {
      const code = this.text.charCodeAt(at);
      if (code === 10) return true;
      if (code !== 32 && code !== 9) return false;
    }
    return true;
  }

  // The start of the comment holding an offset; null when it is in none or the language is not read.
  #commentAround(offset: number): number | null {
    const view = this.#view();
    if (view === null) return null;
    // The last comment starting at or before the offset: its start and end are pairs in order.
    const found = lastAtOrBefore(view.comments, offset, 2);
    if (found === -1 || offset >= (view.comments[found * 2 + 1] ?? 0)) return null;
    return view.comments[found * 2] ?? null;
  }

  /**
   * Whether the character at an offset is code, not a comment or a string's text, by the masker of
   * the file's language (interpolated code counts as code); undefined for languages it does not read.
   */
  isCodeAt(offset: number): boolean | undefined {
    const view = this.#view();
    if (view === null) return undefined;
    return view.masked.charCodeAt(offset) === this.text.charCodeAt(offset);
  }

  /** Whether a trailing comment marker starts at a position the caller knows is outside quotes. */
  startsTrailingComment(line: string, at: number): boolean {
    if (at > 0) {
      const previous = line.charCodeAt(at - 1);
      if (previous !== 32 && previous !== 9) return false;
    }
    return this.#trailingMarkers.some((marker) => line.startsWith(marker, at));
  }

  /** Whether a position on a whole line falls after a trailing comment marker that is outside quotes. */
  isInTrailingComment(line: string, position: number): boolean {
    for (const marker of this.#trailingMarkers) {
      for (
        let at = line.indexOf(marker);
        at !== -1 && at < position;
        at = line.indexOf(marker, at + 1)
      ) {
        const previous = line.charCodeAt(at - 1);
        if (at > 0 && previous !== 32 && previous !== 9) continue;
        if (isOutsideQuotes(line, at)) return true;
      }
    }
    return false;
  }

  /**
   * The statement a line belongs to when a call or expression is wrapped over several lines (null
   * when the line stands alone), with line breaks and trailing comments turned into spaces.
   */
  logicalLineAt(line: number): LogicalLine | null {
    let logical = this.#logicalLines.get(line);
    if (logical === undefined) {
      logical = mayBeWrapped(this, line) ? findLogicalLine(this, line) : null;
      this.#logicalLines.set(line, logical);
    }
    return logical;
  }

  /** Whether the file may take untrusted input in any of its languages. */
  mayReadAnyUntrustedInput(): boolean {
    return this.languages.some((language) => this.mayReadUntrustedInput(language));
  }

  /** Whether the file may take untrusted input in this language (computed once). */
  mayReadUntrustedInput(language: Language): boolean {
    let may = this.#mayReadInput.get(language);
    if (may === undefined) {
      may = mayReadUntrustedInput(this.text, language);
      this.#mayReadInput.set(language, may);
    }
    return may;
  }

  /**
   * What the sink at `hit` sees, by the in-file data flow (assignments, branches, collections,
   * same-file helpers); undefined when the file's language is not analysed or the analysis gave up.
   */
  judgeSink(
    category: HintCategory,
    hit: number,
    matchEnd: number,
    argument: SinkArgument,
  ): SinkVerdict | undefined {
    const flow = this.#flowAnalysis();
    if (flow === null) return undefined;
    // Where the masker reads the hit as string or comment text, its parse and the line that matched
    // disagree (a JS regex or JSX text holding a backtick, PHP's `?>` in a string, a Python f-string's
    // format spec): no verdict, rather than a constant that drops the hint.
    if (this.isCodeAt(hit) === false) return undefined;
    const spans = sinkArgumentSpans(flow.file.masked, hit, matchEnd, argument);
    // A statement before the match is read where it stands (inside the block the match closes).
    const at = argument === 'previous' ? (spans[0]?.start ?? hit) : hit;
    const read =
      argument === 'argv'
        ? argumentList(spans, (span) => flow.valueAt(at, [span]))
        : flow.valueAt(at, spans);
    if (read === undefined) return undefined;
    const value = argument === 'command' || argument === 'argv' ? commandOf(read) : read;
    const kind = CATEGORY_SINK_KINDS[category];
    return { taint: kind === undefined ? value.taint : taintFor(value, kind), via: value.via };
  }

  /** Whether an offset lies in a function a web framework routes requests to (its return is the response). */
  isInRouteHandler(offset: number): boolean {
    const flow = this.#flowAnalysis();
    if (flow === null) return false;
    const pattern = ROUTE_HANDLERS[flow.file.language.language];
    const fn = pattern === undefined ? null : flow.file.functionAt(offset);
    return (
      fn !== null &&
      (pattern?.test(flow.file.original.slice(fn.header.start, fn.header.end)) === true ||
        isRouteTarget(flow.file, fn))
    );
  }

  /**
   * Whether the value made at `offset` is assigned to a variable (`File f = new File(name)`) that the
   * rest of its function uses only as `f.method()` with one of these methods and no argument.
   */
  isHeldOnlyFor(offset: number, methods: readonly string[]): boolean {
    const flow = this.#flowAnalysis();
    const fn = flow?.file.functionAt(offset);
    if (flow === null || fn === null || fn === undefined) return false;
    const masked = flow.file.masked.text;
    const lineStart = masked.lastIndexOf('\n', offset - 1) + 1;
    const name = /(?<![\w$.])([A-Za-z_$][\w$]*)\s*=\s*$/.exec(masked.slice(lineStart, offset))?.[1];
    if (name === undefined) return false;
    const statementEnd = masked.indexOf(';', offset);
    const rest = masked.slice(statementEnd === -1 ? offset : statementEnd, fn.body.end);
    const use = new RegExp(String.raw`(?<![\w$.])${name.replace(/[$]/g, '\\$')}(?![\w$])`, 'g');
    const leaf = new RegExp(String.raw`^\s*\.\s*(?:${methods.join('|')})\s*\(\s*\)`);
    let uses = 0;
    for (const found of rest.matchAll(use)) {
      uses++;
      if (!leaf.test(rest.slice(found.index + name.length, found.index + name.length + 40)))
        return false;
    }
    return uses > 0;
  }

  /** Where the function an offset sits in starts (its header), or 0 when none is found. */
  functionStartAt(offset: number): number {
    return this.#flowAnalysis()?.file.functionAt(offset)?.start ?? 0;
  }

  /** Whether the line starting at an offset closes a function a web framework routes requests to. */
  isRouteHandlerEnd(lineStart: number): boolean {
    const flow = this.#flowAnalysis();
    if (flow === null || lineStart === 0) return false;
    const pattern = ROUTE_HANDLERS[flow.file.language.language];
    const fn = pattern === undefined ? null : flow.file.functionAt(lineStart - 1);
    return (
      fn !== null &&
      fn.body.end === lineStart &&
      pattern?.test(flow.file.original.slice(fn.header.start, fn.header.end)) === true
    );
  }

  /**
   * Where the statement before a line starts (the last non-blank line, comments masked): the value a
   * block closing on that line ends on; undefined when there is none or the language is not analysed.
   */
  statementBefore(lineStart: number): number | undefined {
    const flow = this.#flowAnalysis();
    if (flow === null) return undefined;
    const span = previousLine(flow.file.masked, lineStart);
    if (span.start === span.end) return undefined;
    // Leading indentation is not the statement: the excerpt and column start at its first character.
    const indent =
      /^[ \t]*/.exec(flow.file.masked.text.slice(span.start, span.end))?.[0].length ?? 0;
    return span.start + indent;
  }

  #flowAnalysis(): FlowAnalysis | null {
    if (this.#flow === undefined)
      this.#flow = FlowAnalysis.open(this.text, this.languages, this.#view());
    return this.#flow;
  }

  /**
   * Request input in the text after a sink: directly, or through a variable that the code just
   * before the sink assigned from request input (the fallback where the data flow does not reach).
   */
  findRequestInput(
    language: Language,
    argumentsText: string,
    sinkOffset: number,
  ): RequestInputUse | undefined {
    const input = REQUEST_INPUT[language];
    if (input === undefined) return undefined;
    if (input.test(argumentsText)) return { via: undefined };
    // Most files with a sink read no request input at all: one scan of the file settles that.
    const isBinding = BOUND_PARAMETER[language] !== undefined && this.holds(BINDING_ANNOTATION);
    if (!this.holds(input) && !isBinding) return undefined;
    const before = this.text.slice(
      Math.max(0, sinkOffset - DERIVED_NAME_LOOKBACK_CHARS),
      sinkOffset,
    );
    const names = findRequestDerivedNames(before, language);
    if (names.length === 0) return undefined;
    const pattern = new RegExp(`(?<![\\w$@])(?:${names.map(escapeRegExp).join('|')})(?![\\w$])`);
    const match = pattern.exec(argumentsText);
    return match ? { via: match[0] } : undefined;
  }
}

interface CommentSyntax {
  linePrefixes: readonly string[];
  trailingMarkers: readonly string[];
}

const commentSyntaxByLanguages = new Map<string, CommentSyntax>();

function commentSyntaxOf(languages: readonly Language[]): CommentSyntax {
  const key = languages.join(',');
  let syntax = commentSyntaxByLanguages.get(key);
  if (syntax === undefined) {
    syntax = {
      linePrefixes: [...new Set(languages.flatMap((l) => COMMENT_LINE_PREFIXES[l]))],
      trailingMarkers: [...new Set(languages.flatMap((l) => TRAILING_COMMENT_MARKERS[l] ?? []))],
    };
    commentSyntaxByLanguages.set(key, syntax);
  }
  return syntax;
}

// Where each `/*` and each `*/` of a text starts, in order (read once per file, not once per hit).
function findBlockMarks(text: string): { opens: number[]; closes: number[] } {
  const find = (mark: string): number[] => {
    const found: number[] = [];
    for (let at = text.indexOf(mark); at !== -1; at = text.indexOf(mark, at + 1)) found.push(at);
    return found;
  };
  return { opens: find('/*'), closes: find('*/') };
}

/**
 * The index of the last of ascending numbers at or before a value, or -1. With a stride of 2 the
 * numbers are every other entry (the starts of start-end pairs) and the index counts pairs.
 */
function lastAtOrBefore(sorted: readonly number[], value: number, stride = 1): number {
  let low = 0;
  let high = Math.floor(sorted.length / stride) - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle * stride] ?? 0) <= value) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}
