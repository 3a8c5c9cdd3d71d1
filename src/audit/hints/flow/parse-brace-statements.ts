import type { FlowNode, Span, SwitchCase } from './flow-node.js';
import { MaskedText } from './masked-text.js';

const LOOP_WORDS = new Set(['for', 'foreach', 'while']);
// A definition header: what stands before a `{` that opens a function or a class body.
const CLASS_HEAD =
  /(?:^|\s)(?:class|interface|enum|record|struct|trait|namespace|object|module)\b[^=(]*$/;
const FUNCTION_KEYWORD_HEAD = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\b|func\b)/;
const METHOD_HEAD =
  /^(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:[\w$<>[\],.?\s]+\s)?[\w$]+\s*\([^]*\)\s*(?:throws\s+[\w.,\s]+|:\s*[^{};=]+)?$/;
const CONTROL_WORDS = new Set([
  'if',
  'for',
  'foreach',
  'while',
  'switch',
  'catch',
  'return',
  'new',
  'synchronized',
  'using',
  'lock',
  'with',
]);
// A line that ends like this continues on the next one.
const CONTINUES_AFTER =
  /[,([{=+\-*/%&|^!~?:<>.]$|=>$|\b(?:return|new|await|typeof|in|of|instanceof)$/;
// A postfix increment ends its line's statement (`id = counter++`), though it ends in `+`.
const POSTFIX_UPDATE_AT_END = /(?:\+\+|--)$/;
// A line that starts like this continues the previous one.
const CONTINUES_BEFORE = /^(?:[.,)\]?:+\-*/%&|^=<>]|\?\.|as\b|instanceof\b)/;

/** Parses the statements of a brace-language span (a function body, or a whole file) from masked text. */
export function parseBraceStatements(
  masked: MaskedText,
  span: Span,
  casesFallThrough: boolean,
): FlowNode[] {
  return new BraceParser(masked, casesFallThrough).parseBlock(span.start, span.end);
}

class BraceParser {
  constructor(
    private readonly text: MaskedText,
    private readonly casesFallThrough: boolean,
  ) {}

  parseBlock(start: number, end: number): FlowNode[] {
    const nodes: FlowNode[] = [];
    let at = start;
    // Each statement consumes at least one character, so the loop ends.
    while (at < end) {
      at = this.skipSeparators(at, end);
      if (at >= end) break;
      const parsed = this.parseStatement(at, end);
      if (parsed.node !== null) nodes.push(parsed.node);
      at = Math.max(parsed.next, at + 1);
    }
    return nodes;
  }

  private skipSeparators(at: number, end: number): number {
    const text = this.text.text;
    while (at < end && (/\s/.test(text[at] ?? '') || text[at] === ';' || text[at] === '}')) at++;
    return at;
  }

  private parseStatement(at: number, end: number): { node: FlowNode | null; next: number } {
    const text = this.text;
    const word = text.wordAt(at);
    if (word === 'if') return this.parseIf(at, end);
    if (LOOP_WORDS.has(word)) {
      const head = this.headAfter(at + word.length, end);
      const body = this.parseBody(head.end + (text.text[head.end] === ')' ? 1 : 0), end);
      return {
        node: { kind: 'loop', start: at, end: body.next, head: head.span, body: body.nodes },
        next: body.next,
      };
    }
    if (word === 'do') {
      const body = this.parseBody(at + 2, end);
      const tail = this.parseSimple(body.next, end).next;
      return {
        node: {
          kind: 'loop',
          start: at,
          end: tail,
          head: { start: body.next, end: tail },
          body: body.nodes,
        },
        next: tail,
      };
    }
    if (word === 'switch' || word === 'select') return this.parseSwitch(at, word.length, end);
    if (word === 'try') return this.parseTry(at, end);
    if (text.text[at] === '{') {
      const close = text.closeOf(at, end);
      return {
        node: { kind: 'block', start: at, end: close + 1, body: this.parseBlock(at + 1, close) },
        next: close + 1,
      };
    }
    return this.parseSimple(at, end);
  }

  private parseIf(at: number, end: number): { node: FlowNode; next: number } {
    const text = this.text;
    const head = this.headAfter(at + 2, end);
    const then = this.parseBody(head.end + (text.text[head.end] === ')' ? 1 : 0), end);
    let next = then.next;
    let otherwise: FlowNode[] | null = null;
    const elseAt = text.skipSpace(next, end);
    const elseWord = text.wordAt(elseAt);
    if (elseWord === 'else' || elseWord === 'elseif') {
      const after = elseWord === 'elseif' ? elseAt + 4 : text.skipSpace(elseAt + 4, end);
      if (elseWord === 'elseif' || text.wordAt(after) === 'if') {
        const nested = this.parseIf(after, end);
        otherwise = [nested.node];
        next = nested.next;
      } else {
        const body = this.parseBody(after, end);
        otherwise = body.nodes;
        next = body.next;
      }
    }
    return {
      node: {
        kind: 'if',
        start: at,
        end: next,
        condition: head.span,
        isNegated: false,
        then: then.nodes,
        otherwise,
      },
      next,
    };
  }

  private parseSwitch(
    at: number,
    keywordLength: number,
    end: number,
  ): { node: FlowNode; next: number } {
    const text = this.text;
    const head = this.headAfter(at + keywordLength, end);
    const open = text.skipSpace(head.end + (text.text[head.end] === ')' ? 1 : 0), end);
    if (text.text[open] !== '{')
      return { node: { kind: 'simple', start: at, end: open }, next: open };
    const close = text.closeOf(open, end);
    const cases: SwitchCase[] = [];
    let current: SwitchCase | null = null;
    let cursor = open + 1;
    while (cursor < close) {
      cursor = this.skipSeparators(cursor, close);
      if (cursor >= close) break;
      const word = text.wordAt(cursor);
      if (word === 'case' || word === 'default') {
        const colon = this.labelEnd(cursor + word.length, close);
        current = {
          labels: word === 'case' ? this.splitLabels(cursor + 4, colon.at) : [],
          body: [],
        };
        cases.push(current);
        cursor = colon.next;
        continue;
      }
      const parsed = this.parseStatement(cursor, close);
      if (parsed.node !== null) current?.body.push(parsed.node);
      cursor = Math.max(parsed.next, cursor + 1);
    }
    const subject = head.span.end > head.span.start ? head.span : null;
    return {
      node: {
        kind: 'switch',
        start: at,
        end: close + 1,
        subject,
        cases,
        fallsThrough: this.casesFallThrough,
      },
      next: close + 1,
    };
  }

  private parseTry(at: number, end: number): { node: FlowNode; next: number } {
    const text = this.text;
    let cursor = text.skipSpace(at + 3, end);
    const resources: FlowNode[] = [];
    if (text.text[cursor] === '(') {
      const close = text.closeOf(cursor, end);
      resources.push(...this.parseBlock(cursor + 1, close));
      cursor = close + 1;
    }
    const body = this.parseBody(cursor, end);
    const handlers: FlowNode[][] = [];
    let final: FlowNode[] | null = null;
    let next = body.next;
    for (;;) {
      const wordAt = text.skipSpace(next, end);
      const word = text.wordAt(wordAt);
      if (word === 'catch' || word === 'except') {
        let open = text.skipSpace(wordAt + word.length, end);
        if (text.text[open] === '(') open = text.skipSpace(text.closeOf(open, end) + 1, end);
        const handler = this.parseBody(open, end);
        handlers.push(handler.nodes);
        next = handler.next;
      } else if (word === 'finally') {
        const handler = this.parseBody(wordAt + 7, end);
        final = handler.nodes;
        next = handler.next;
      } else break;
    }
    return {
      node: {
        kind: 'try',
        start: at,
        end: next,
        body: [...resources, ...body.nodes],
        handlers,
        final,
      },
      next,
    };
  }

  // The head of a control statement: a parenthesised group, or (Go) the text up to the `{`.
  private headAfter(at: number, end: number): { span: Span; end: number } {
    const text = this.text;
    const open = text.skipSpace(at, end);
    if (text.text[open] === '(') {
      const close = text.closeOf(open, end);
      return { span: { start: open + 1, end: close }, end: close };
    }
    let cursor = open;
    while (cursor < end && text.text[cursor] !== '{' && text.text[cursor] !== '\n') {
      if (text.text[cursor] === '(' || text.text[cursor] === '[')
        cursor = text.closeOf(cursor, end);
      cursor++;
    }
    return { span: { start: open, end: cursor }, end: cursor };
  }

  private parseBody(at: number, end: number): { nodes: FlowNode[]; next: number } {
    const text = this.text;
    const open = text.skipSpace(at, end);
    if (text.text[open] === '{') {
      const close = text.closeOf(open, end);
      return { nodes: this.parseBlock(open + 1, close), next: close + 1 };
    }
    if (text.text[open] === ':') {
      // PHP's alternative syntax (`if (...):`) and Go's `case x:` bodies are not parsed further.
      return { nodes: [], next: open + 1 };
    }
    if (open >= end) return { nodes: [], next: end };
    const statement = this.parseStatement(open, end);
    return { nodes: statement.node === null ? [] : [statement.node], next: statement.next };
  }

  private labelEnd(at: number, end: number): { at: number; next: number } {
    const text = this.text.text;
    for (let cursor = at; cursor < end; cursor++) {
      const code = text[cursor];
      if (code === '(' || code === '[' || code === '{') cursor = this.text.closeOf(cursor, end);
      else if (code === ':' && text[cursor + 1] !== ':' && text[cursor - 1] !== ':') {
        return { at: cursor, next: cursor + 1 };
      } else if (code === '-' && text[cursor + 1] === '>') return { at: cursor, next: cursor + 2 };
    }
    return { at: end, next: end };
  }

  private splitLabels(start: number, end: number): Span[] {
    const spans: Span[] = [];
    let from = start;
    for (let cursor = start; cursor <= end; cursor++) {
      const code = this.text.text[cursor];
      if (code === '(' || code === '[' || code === '{') cursor = this.text.closeOf(cursor, end);
      else if (code === ',' || cursor === end) {
        spans.push({ start: from, end: cursor });
        from = cursor + 1;
      }
    }
    return spans;
  }

  private parseSimple(at: number, end: number): { node: FlowNode | null; next: number } {
    const text = this.text;
    let cursor = at;
    while (cursor < end) {
      const code = text.text[cursor];
      if (code === '(' || code === '[') {
        cursor = text.closeOf(cursor, end) + 1;
        continue;
      }
      if (code === '{') {
        const head = text.slice(at, cursor).trim();
        const close = text.closeOf(cursor, end);
        if (CLASS_HEAD.test(head)) {
          return {
            node: {
              kind: 'block',
              start: at,
              end: close + 1,
              body: this.parseBlock(cursor + 1, close),
            },
            next: close + 1,
          };
        }
        if (isDeclarationHead(head)) {
          return { node: { kind: 'definition', start: at, end: close + 1 }, next: close + 1 };
        }
        cursor = close + 1;
        continue;
      }
      if (code === '}') return { node: this.simple(at, cursor), next: cursor };
      if (code === ';') return { node: this.simple(at, cursor), next: cursor + 1 };
      if (code === '\n' && this.endsAtNewline(at, cursor, end)) {
        return { node: this.simple(at, cursor), next: cursor + 1 };
      }
      cursor++;
    }
    return { node: this.simple(at, Math.min(cursor, end)), next: cursor };
  }

  private simple(start: number, end: number): FlowNode | null {
    const last = this.text.lastNonSpace(end, start);
    return last < start ? null : { kind: 'simple', start, end: last + 1 };
  }

  // Automatic statement ends (JavaScript, Go, and wrapped Java lines read the same way).
  private endsAtNewline(start: number, newline: number, end: number): boolean {
    const before = this.text.slice(start, newline).trimEnd();
    if (before === '') return false;
    if (!POSTFIX_UPDATE_AT_END.test(before) && CONTINUES_AFTER.test(before)) return false;
    const next = this.text.skipSpace(newline, end);
    if (next >= end) return true;
    const ahead = this.text.slice(next, Math.min(end, next + 12));
    return !CONTINUES_BEFORE.test(ahead);
  }
}

/** Whether the text before a `{` declares a function or method (its body is not part of this flow). */
export function isDeclarationHead(head: string): boolean {
  if (head === '') return false;
  // Annotations and parameter lists may hold `=` (`@Get(value = "/")`, `f(a = 1)`): only the rest says assignment.
  const outside = withoutGroups(head.replace(/@[\w.]+\s*(?:\([^()]*\))?/g, ''));
  if (/(?:=>|->)$/.test(head)) return !/=(?!=|>)/.test(outside.replace(/=>$|->$/, ''));
  if (FUNCTION_KEYWORD_HEAD.test(head)) return true;
  if (/[=]/.test(outside.replace(/[=!<>]=|=>/g, ''))) return false;
  const word = /^[\w$]+/.exec(head)?.[0] ?? '';
  if (CONTROL_WORDS.has(word)) return false;
  return METHOD_HEAD.test(head) && !/\bnew\s+[\w$.<>]+\s*\([^]*\)$/.test(head);
}

// The text with every bracketed group emptied: `f(a = 1) {` reads as `f() {`.
function withoutGroups(text: string): string {
  let out = '';
  let depth = 0;
  for (const char of text) {
    if (char === '(' || char === '[') depth++;
    else if ((char === ')' || char === ']') && depth > 0) depth--;
    if (depth === 0 || char === '(' || char === ')') out += char;
  }
  return out;
}
