import type { Severity } from '../types.js';
import type { CompiledMatcher, CompiledMatchers } from './compile-matchers.js';
import type { Language } from './detect-languages.js';
import type { FileContext, SinkVerdict } from './file-context.js';
import type { HintCollector } from './hint-collector.js';
import type { LineMatcher, NearCondition, ReceiverCondition } from './hint-rule.js';
import { isOutsideQuotes } from './is-outside-quotes.js';
import { enclosingNames } from './enclosing-names.js';
import { escapeRegExp } from './escape-reg-exp.js';
import type { LogicalLine } from './logical-line.js';

// Lines longer than this (minified code, data) are tested in a window around each keyword instead
// of whole, so a rule's cost stays bounded by the window, not the line.
const LONG_LINE_CHARS = 2_000;
const WINDOW_BEFORE_CHARS = 400;
const WINDOW_AFTER_CHARS = 600;
// The largest file that takes no input whose sinks are still judged by the data flow.
const MAX_INPUTLESS_FLOW_CHARS = 30_000;
// The most text a `near` condition reads on each side of a hit, whatever the line lengths.
const NEAR_MAX_CHARS = 2_000;

const WEAKER: Record<Severity, Severity> = {
  critical: 'high',
  high: 'medium',
  medium: 'low',
  low: 'info',
  info: 'info',
};

/** The text a matcher is tested on: a whole line, or a window of a very long one. Reused across hits. */
interface Segment {
  line: number;
  lineStart: number;
  lineEnd: number;
  start: number;
  end: number;
  isLong: boolean;
  isComment: boolean;
  text: string;
}

/** Runs the keyword scan over a file and tests each matcher on the lines its keywords point at. */
export function applyMatchers(
  file: FileContext,
  compiled: CompiledMatchers,
  collector: HintCollector,
): void {
  const scanner = compiled.keywordScanner;
  if (scanner === null) return;
  // Per matcher: the last line tested, and the end of the text tested on it.
  const lastLine = new Int32Array(compiled.slotCount);
  const lastTestedEnd = new Int32Array(compiled.slotCount);
  const segment: Segment = {
    line: 0,
    lineStart: 0,
    lineEnd: -1,
    start: 0,
    end: 0,
    isLong: false,
    isComment: false,
    text: '',
  };
  scanner.forEachHit(file.text, (offset, keyword) => {
    const candidates = compiled.byKeyword[keyword];
    if (candidates === undefined) return;
    if (offset > segment.lineEnd) moveToLine(file, segment, offset);
    else if (segment.isLong && offset >= segment.end) moveWindow(file, segment, offset);
    for (const candidate of candidates) {
      const slot = candidate.slot;
      if (lastLine[slot] === segment.line && offset < (lastTestedEnd[slot] ?? 0)) continue;
      lastLine[slot] = segment.line;
      lastTestedEnd[slot] = segment.end;
      testMatcher(file, candidate, segment, collector);
    }
  });
}

function moveToLine(file: FileContext, segment: Segment, offset: number): void {
  const lines = file.lines;
  segment.line = lines.lineOf(offset);
  segment.lineStart = lines.startOf(segment.line);
  segment.lineEnd = lines.endOf(segment.line);
  segment.isComment = file.isCommentLine(segment.lineStart);
  segment.isLong = segment.lineEnd - segment.lineStart > LONG_LINE_CHARS;
  if (segment.isLong) {
    moveWindow(file, segment, offset);
  } else {
    segment.start = segment.lineStart;
    segment.end = segment.lineEnd;
    segment.text = file.text.slice(segment.start, segment.end);
  }
}

function moveWindow(file: FileContext, segment: Segment, offset: number): void {
  segment.start = Math.max(segment.lineStart, offset - WINDOW_BEFORE_CHARS);
  segment.end = Math.min(segment.lineEnd, offset + WINDOW_AFTER_CHARS);
  segment.text = file.text.slice(segment.start, segment.end);
}

function testMatcher(
  file: FileContext,
  { rule, matcher }: CompiledMatcher,
  segment: Segment,
  collector: HintCollector,
): void {
  // A line that looks like a comment is skipped, unless the masker can judge where a rule matches.
  const isText = matcher.kind === 'text';
  if (segment.isComment && !isText && !file.isMasked) return;
  let text = segment.text;
  let match = matcher.pattern.exec(text);
  let logical: LogicalLine | null = null;
  if (match === null) {
    // A call or expression wrapped over several lines is matched as one statement.
    if (segment.isLong || isText || segment.isComment) return;
    logical = file.logicalLineAt(segment.line);
    if (logical === null) return;
    match = matcher.pattern.exec(logical.text);
    if (match === null) return;
    text = logical.text;
  }
  // File-wide conditions after the pattern: each is read once per file, and only in files where
  // the pattern matched (reading a whole file for a keyword as common as `path` cost more).
  if (matcher.fileRequires !== undefined && !file.holds(matcher.fileRequires)) return;
  if (matcher.fileForbids !== undefined && file.holds(matcher.fileForbids)) return;
  const receiver = match.groups?.['receiver'];
  if (matcher.receiver !== undefined && receiver !== undefined) {
    if (!isReceiver(file, receiver, matcher.receiver)) return;
  }
  const hitOffset =
    logical === null ? segment.start + match.index : (logical.offsets[match.index] ?? 0);
  // The line's own reading decides what is a comment or a string. The language's masker, which
  // reads across lines, may only reveal code the line hides (`* eval(x)` continuing a product, a
  // call after a template closes, a `//` inside a regex) or rank the inside of a `/* … */` block
  // that opens a line as informational: a parse it gets wrong (a string form it does not know)
  // can then cost a false alarm or a low rank, never a missed call.
  let isInBlockComment = false;
  if (!isText && !segment.isLong) {
    if (segment.isComment) {
      if (file.isCodeAt(hitOffset) !== true) return;
    } else if (
      logical === null &&
      file.isInTrailingComment(text, match.index) &&
      file.isCodeAt(hitOffset) !== true
    ) {
      return;
    } else {
      isInBlockComment = file.isInBlockComment(hitOffset);
    }
  }
  if (
    matcher.isStringScanned === false &&
    !segment.isLong &&
    !isOutsideQuotes(text, match.index) &&
    file.isCodeAt(hitOffset) !== true
  ) {
    return;
  }
  if (matcher.unless !== undefined) {
    if (matcher.unless.test(text)) return;
    // A safe form may sit on a later line of the same wrapped statement (`algorithms:` in options).
    const statement = logical ?? (segment.isLong ? null : file.logicalLineAt(segment.line));
    if (statement !== null && matcher.unless.test(statement.text)) return;
  }
  const matchEnd =
    logical === null
      ? hitOffset + match[0].length
      : (logical.offsets[match.index + match[0].length - 1] ?? hitOffset) + 1;
  const line = logical === null ? segment.line : file.lines.lineOf(hitOffset);
  if (collector.has(rule.id, line)) return;
  if (matcher.isInRouteHandlerOnly === true && !file.isInRouteHandler(hitOffset)) return;
  if (matcher.isRouteHandlerEndOnly === true && !file.isRouteHandlerEnd(file.lines.startOf(line)))
    return;
  if (matcher.near !== undefined && !isNearConditionMet(file, matcher.near, line, hitOffset))
    return;
  if (
    matcher.unlessHeldOnlyFor !== undefined &&
    file.isHeldOnlyFor(hitOffset, matcher.unlessHeldOnlyFor)
  )
    return;
  let severity = rule.severity;
  let message = rule.message;
  let isFlowEscalated = false;
  // A file that takes no input cannot feed a request sink: no need to follow its data.
  const input = matcher.kind === 'request-sink' ? matcher.input : undefined;
  if (input !== undefined && !file.mayReadUntrustedInput(input)) return;
  // Without input the flow can only tell constants from unknowns: worth it for a small file, where
  // a constant command or query is dropped, not for a large generated one (the hint keeps its default).
  const isJudged =
    input !== undefined ||
    (matcher.kind === 'flow-sink' &&
      (file.text.length <= MAX_INPUTLESS_FLOW_CHARS || file.mayReadAnyUntrustedInput()));
  if (isJudged) {
    const argument =
      matcher.kind === 'flow-sink' || matcher.kind === 'request-sink'
        ? matcher.argument
        : undefined;
    const verdict = file.judgeSink(rule.category, hitOffset, matchEnd, argument ?? 'call');
    if (input !== undefined) {
      const via = requestInputVia(file, input, verdict, text.slice(match.index), hitOffset);
      if (via === null) return;
      if (via !== undefined) {
        severity = WEAKER[severity];
        message = `${message} (request input reaches it through \`${via}\`)`;
      }
    } else if (verdict?.taint === 'clean') {
      return;
    } else if (verdict?.taint === 'tainted') {
      isFlowEscalated = true;
    }
  }
  if (isFlowEscalated || isEscalated(file, matcher, text, line, hitOffset)) {
    const escalation = 'escalate' in matcher ? matcher.escalate : undefined;
    severity = escalation?.severity ?? (isFlowEscalated ? 'high' : severity);
  }
  if (isInBlockComment) {
    severity = 'info';
    message = `${message} (inside a /* … */ comment, so ranked informational; check that it is one)`;
  }
  // A sink read on the statement before its match (a block's value at its `end`) is shown on that statement.
  const before =
    'argument' in matcher && matcher.argument === 'previous'
      ? file.statementBefore(file.lines.startOf(line))
      : undefined;
  if (before === undefined) collector.add(rule, severity, message, line, hitOffset);
  else collector.add(rule, severity, message, file.lines.lineOf(before), before);
}

// The name request input came through (undefined when read directly), or null when none reaches the sink.
function requestInputVia(
  file: FileContext,
  language: Language,
  verdict: SinkVerdict | undefined,
  argumentsText: string,
  hitOffset: number,
): string | undefined | null {
  if (verdict !== undefined) return verdict.taint === 'tainted' ? verdict.via : null;
  const use = file.findRequestInput(language, argumentsText, hitOffset);
  return use === undefined ? null : use.via;
}

// Per file, by the text searched: whether the file holds it as code.
const heldInCode = new WeakMap<FileContext, Map<string, boolean>>();

// Whether the file makes the name from a source (`R = new Random()`, `this.rng = new Random(seed)`,
// Ruby's `@rng ||= Random.new`) or declares it of a type (`Part part`, `for (Part part : parts)`, Go's
// `w http.ResponseWriter`).
function isReceiver(file: FileContext, name: string, condition: ReceiverCondition): boolean {
  const escaped = escapeRegExp(name);
  const { assignedFrom, declaredAs, typedAs } = condition;
  return (
    (assignedFrom !== undefined &&
      holdsInCode(
        file,
        String.raw`(?<![\w$@])${escaped}\s*(?:\|\||\?\?)?=\s*(?:${assignedFrom.source})`,
      )) ||
    (declaredAs !== undefined &&
      holdsInCode(file, String.raw`(?:${declaredAs.source})\s+${escaped}(?![\w$])(?!\s*\()`)) ||
    (typedAs !== undefined &&
      holdsInCode(file, String.raw`(?<![\w$.])${escaped}\s+\*?(?:${typedAs.source})(?![\w$])`))
  );
}

function holdsInCode(file: FileContext, source: string): boolean {
  let known = heldInCode.get(file);
  if (known === undefined) {
    known = new Map();
    heldInCode.set(file, known);
  }
  let held = known.get(source);
  if (held === undefined) {
    held = [...file.text.matchAll(new RegExp(source, 'g'))].some((found) =>
      isCode(file, found.index),
    );
    known.set(source, held);
  }
  return held;
}

// Code, not a comment: the masker's reading where it has one, else the line's.
function isCode(file: FileContext, offset: number): boolean {
  const masked = file.isCodeAt(offset);
  return masked ?? !file.isCommentLine(file.lines.startOf(file.lines.lineOf(offset)));
}

function isNearConditionMet(
  file: FileContext,
  near: NearCondition,
  line: number,
  offset: number,
): boolean {
  const floor = near.isWithinFunction === true ? file.functionStartAt(offset) : 0;
  const around = textAround(file, line, near.before, near.after, offset, floor);
  if (near.requires !== undefined && !near.requires.test(around)) {
    if (near.isEnclosingNameEnough !== true || !near.requires.test(enclosingNames(file, line)))
      return false;
  }
  return near.forbids === undefined || !near.forbids.test(around);
}

function isEscalated(
  file: FileContext,
  matcher: LineMatcher,
  segment: string,
  line: number,
  offset: number,
): boolean {
  const escalate = 'escalate' in matcher ? matcher.escalate : undefined;
  if (escalate === undefined) return false;
  if (escalate.onLine?.test(segment)) return true;
  const near = escalate.near;
  return (
    near !== undefined && near.pattern.test(textAround(file, line, near.before, near.after, offset))
  );
}

function textAround(
  file: FileContext,
  line: number,
  before: number,
  after: number,
  offset: number,
  floor = 0,
): string {
  const start = Math.max(file.lines.startOf(line - before), offset - NEAR_MAX_CHARS, floor);
  const end = Math.min(file.lines.endOf(line + after), offset + NEAR_MAX_CHARS);
  return file.text.slice(start, end);
}
