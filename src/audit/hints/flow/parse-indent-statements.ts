import type { FlowNode, Span, SwitchCase } from './flow-node.js';
import type { MaskedText } from './masked-text.js';

/** One logical line: continuation lines joined, with its indentation. */
interface LogicalLine extends Span {
  indent: number;
  /** Where the text after the indentation starts. */
  textStart: number;
}

const PYTHON_HEADER =
  /^(?:async\s+)?(if|elif|else|for|while|try|except|finally|with|def|class|match|case)\b/;
const RUBY_HEADER =
  /^(if|unless|elsif|else|while|until|for|case|when|in|def|class|module|begin|rescue|ensure)\b/;
const RUBY_BLOCK_OPENER = /\bdo(?:\s*\|[^|]*\|)?\s*$/;
const RUBY_CONTINUES_AFTER = /(?:[,([{=+\-*/%&|^!~?:<>.\\]|\b(?:and|or|not))$/;
// A regular expression literal that ends the line (`unless id =~ /\A\d+\z/`): its closing `/` is no division.
const RUBY_REGEX_AT_END =
  /(?:=~|!~|[(,=]|\b(?:when|if|unless|and|or|not))\s*\/(?:[^/\\\n]|\\.)+\/$/;

/** Parses an indentation-structured span (Python, or Ruby read by its indentation) into flow nodes. */
export function parseIndentStatements(
  masked: MaskedText,
  span: Span,
  dialect: 'python' | 'ruby',
): FlowNode[] {
  const lines = logicalLines(masked, span, dialect);
  const parser = new IndentParser(masked, lines, dialect);
  return parser.parseBlock(-1);
}

function logicalLines(masked: MaskedText, span: Span, dialect: 'python' | 'ruby'): LogicalLine[] {
  const text = masked.text;
  const lines: LogicalLine[] = [];
  let at = span.start;
  while (at < span.end) {
    const lineStart = at;
    let textStart = at;
    while (textStart < span.end && (text[textStart] === ' ' || text[textStart] === '\t'))
      textStart++;
    let cursor = textStart;
    let depth = 0;
    for (;;) {
      const newline = text.indexOf('\n', cursor);
      const lineEnd = newline === -1 || newline > span.end ? span.end : newline;
      for (let i = cursor; i < lineEnd; i++) {
        const code = text[i];
        if (code === '(' || code === '[' || code === '{') depth++;
        else if (code === ')' || code === ']' || code === '}') depth = Math.max(0, depth - 1);
      }
      const trimmed = text.slice(textStart, lineEnd).trimEnd();
      const continues =
        depth > 0 ||
        trimmed.endsWith('\\') ||
        (dialect === 'ruby' &&
          RUBY_CONTINUES_AFTER.test(trimmed) &&
          !RUBY_BLOCK_OPENER.test(trimmed) &&
          !RUBY_REGEX_AT_END.test(trimmed)) ||
        (dialect === 'ruby' && /^\s*\./.test(text.slice(lineEnd + 1, lineEnd + 80)));
      if (!continues || lineEnd >= span.end) {
        const end = lineStart + text.slice(lineStart, lineEnd).trimEnd().length;
        if (end > textStart)
          lines.push({ start: lineStart, end, indent: textStart - lineStart, textStart });
        at = lineEnd + 1;
        break;
      }
      cursor = lineEnd + 1;
    }
  }
  return lines;
}

class IndentParser {
  private index = 0;

  constructor(
    private readonly masked: MaskedText,
    private readonly lines: readonly LogicalLine[],
    private readonly dialect: 'python' | 'ruby',
  ) {}

  /** Statements indented deeper than `parentIndent`, from the current line on. */
  parseBlock(parentIndent: number): FlowNode[] {
    const nodes: FlowNode[] = [];
    const first = this.lines[this.index];
    if (first === undefined || first.indent <= parentIndent) return nodes;
    const indent = first.indent;
    while (this.index < this.lines.length) {
      const line = this.lines[this.index];
      if (line === undefined || line.indent < indent) break;
      if (line.indent > indent) {
        // Deeper lines that no header opened (a wrapped expression): part of the previous statement.
        this.index++;
        continue;
      }
      const node = this.parseStatement(line);
      if (node !== null) nodes.push(node);
    }
    return nodes;
  }

  private textOf(line: LogicalLine): string {
    return this.masked.slice(line.textStart, line.end);
  }

  private headerOf(line: LogicalLine): string | null {
    const text = this.textOf(line);
    if (this.dialect === 'python') {
      const match = PYTHON_HEADER.exec(text);
      return match?.[1] !== undefined && /:\s*$|:\s*\S/.test(text) ? match[1] : null;
    }
    if (/^end\b/.test(text)) return 'end';
    const match = RUBY_HEADER.exec(text);
    if (match?.[1] !== undefined) return match[1];
    return RUBY_BLOCK_OPENER.test(text) ? 'do' : null;
  }

  private parseStatement(line: LogicalLine): FlowNode | null {
    const header = this.headerOf(line);
    if (header === 'end') {
      this.index++;
      return null;
    }
    if (header === null) {
      this.index++;
      return this.simpleOf(line);
    }
    if (header === 'if' || header === 'unless') return this.parseIf(line);
    if (header === 'for' || header === 'while' || header === 'until' || header === 'do') {
      this.index++;
      const body = this.parseBody(line);
      return {
        kind: 'loop',
        start: line.start,
        end: this.endOf(body, line),
        head: this.headSpan(line),
        body,
      };
    }
    if (header === 'case' || header === 'match') return this.parseCase(line);
    if (header === 'try' || header === 'begin' || header === 'with') return this.parseTry(line);
    if (header === 'def' || header === 'class' || header === 'module') {
      this.index++;
      const body = this.parseBody(line);
      if (header === 'def')
        return { kind: 'definition', start: line.start, end: this.endOf(body, line) };
      return { kind: 'block', start: line.start, end: this.endOf(body, line), body };
    }
    // An arm whose header was not consumed by its statement (a stray `else`): skip the header line.
    this.index++;
    return null;
  }

  private parseIf(line: LogicalLine): FlowNode {
    const isNegated = this.headerOf(line) === 'unless';
    this.index++;
    const then = this.parseBody(line);
    let otherwise: FlowNode[] | null = null;
    const next = this.lines[this.index];
    if (next !== undefined && next.indent === line.indent) {
      const header = this.headerOf(next);
      if (header === 'elif' || header === 'elsif') otherwise = [this.parseIf(next)];
      else if (header === 'else') {
        this.index++;
        otherwise = this.parseBody(next);
      }
    }
    const last = otherwise ?? then;
    return {
      kind: 'if',
      start: line.start,
      end: this.endOf(last, line),
      condition: this.headSpan(line),
      isNegated,
      then,
      otherwise,
    };
  }

  private parseCase(line: LogicalLine): FlowNode {
    this.index++;
    const cases: SwitchCase[] = [];
    for (;;) {
      const arm = this.lines[this.index];
      if (arm === undefined || arm.indent < line.indent) break;
      const header = this.headerOf(arm);
      if (header !== 'when' && header !== 'in' && header !== 'case' && header !== 'else') break;
      if (arm.indent === line.indent && header === 'case' && this.dialect === 'ruby') break;
      this.index++;
      const body = this.parseBody(arm);
      cases.push({ labels: header === 'else' ? [] : [this.headSpan(arm)], body });
    }
    const subject = this.headSpan(line);
    return {
      kind: 'switch',
      start: line.start,
      end: this.lines[this.index - 1]?.end ?? line.end,
      subject: subject.end > subject.start ? subject : null,
      cases,
      fallsThrough: false,
    };
  }

  private parseTry(line: LogicalLine): FlowNode {
    this.index++;
    const body = this.parseBody(line);
    const handlers: FlowNode[][] = [];
    let final: FlowNode[] | null = null;
    for (;;) {
      const next = this.lines[this.index];
      if (next === undefined || next.indent !== line.indent) break;
      const header = this.headerOf(next);
      if (header === 'except' || header === 'rescue' || header === 'else') {
        this.index++;
        handlers.push(this.parseBody(next));
      } else if (header === 'finally' || header === 'ensure') {
        this.index++;
        final = this.parseBody(next);
      } else break;
    }
    const withHead: FlowNode[] =
      this.headerOf(line) === 'with' ? [{ kind: 'simple', ...this.headSpan(line) }] : [];
    return {
      kind: 'try',
      start: line.start,
      end: this.lines[this.index - 1]?.end ?? line.end,
      body: [...withHead, ...body],
      handlers,
      final,
    };
  }

  // A header's body: the deeper lines after it, or (Python) the statement after its colon.
  private parseBody(header: LogicalLine): FlowNode[] {
    const inline = this.inlineBody(header);
    if (inline !== null) return [inline];
    return this.parseBlock(header.indent);
  }

  private inlineBody(header: LogicalLine): FlowNode | null {
    if (this.dialect !== 'python') return null;
    const colon = this.headerColon(header);
    if (colon === -1) return null;
    const start = this.masked.skipSpace(colon + 1, header.end);
    return start < header.end ? { kind: 'simple', start, end: header.end } : null;
  }

  // The colon that ends a Python header (outside brackets), or -1.
  private headerColon(line: LogicalLine): number {
    const text = this.masked.text;
    let depth = 0;
    for (let at = line.textStart; at < line.end; at++) {
      const code = text[at];
      if (code === '(' || code === '[' || code === '{') depth++;
      else if (code === ')' || code === ']' || code === '}') depth--;
      else if (code === ':' && depth === 0) return at;
    }
    return -1;
  }

  // The text of a header after its keyword (the condition, the loop head, the case subject).
  private headSpan(line: LogicalLine): Span {
    const text = this.textOf(line);
    const keyword = /^(?:async\s+)?[\w]+\s*/.exec(text)?.[0].length ?? 0;
    let end = line.end;
    if (this.dialect === 'python') {
      const colon = this.headerColon(line);
      if (colon !== -1) end = colon;
    } else {
      const opener = RUBY_BLOCK_OPENER.exec(text);
      if (opener !== null && this.headerOf(line) === 'do') {
        return { start: line.textStart, end: line.end };
      }
      const then = /\s+then\b.*$/.exec(text);
      if (then !== null) end = line.textStart + then.index;
    }
    return { start: line.textStart + keyword, end };
  }

  private simpleOf(line: LogicalLine): FlowNode {
    const text = this.textOf(line);
    // Ruby (and Perl-like) statement modifiers: `x = y if cond`, `return unless ok`.
    if (this.dialect === 'ruby') {
      const modifier = /\s(if|unless)\s+(?!.*\b(?:then|do)\b)/.exec(text);
      if (modifier !== null) {
        const split = line.textStart + modifier.index;
        const conditionStart = split + modifier[0].length;
        return {
          kind: 'if',
          start: line.start,
          end: line.end,
          condition: { start: conditionStart, end: line.end },
          isNegated: modifier[1] === 'unless',
          then: [{ kind: 'simple', start: line.textStart, end: split }],
          otherwise: null,
        };
      }
    }
    return { kind: 'simple', start: line.textStart, end: line.end };
  }

  private endOf(body: readonly FlowNode[], header: LogicalLine): number {
    return body[body.length - 1]?.end ?? header.end;
  }
}
