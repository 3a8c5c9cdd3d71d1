/** A constant a condition or a switch subject folds to. */
export type Constant = string | number | boolean;

/** What folding needs: the masked and original text of the expression, and constants by name. */
export interface FoldSource {
  masked: string;
  original: string;
  constantOf(name: string): Constant | undefined;
}

type Token =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'name'; value: string }
  | { kind: 'op'; value: string };

const OPERATORS = [
  '===',
  '!==',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '!',
  '(',
  ')',
  '.',
  '[',
  ']',
  ',',
];
const PRECEDENCE: Readonly<Record<string, number>> = {
  '||': 1,
  or: 1,
  '&&': 2,
  and: 2,
  '==': 3,
  '!=': 3,
  '===': 3,
  '!==': 3,
  '<': 4,
  '>': 4,
  '<=': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
};
// Expressions longer than this are not worth folding (conditions that fold are short).
const MAX_FOLD_CHARS = 200;

/**
 * Folds arithmetic, comparisons and a few string operations over literals and known constants
 * (`(7 * 42) - num > 200`, `guess.charAt(1)`, `"a" + "b"`); undefined when anything is unknown.
 */
export function foldConstant(source: FoldSource): Constant | undefined {
  if (source.masked.length > MAX_FOLD_CHARS) return undefined;
  const tokens = tokenize(source);
  if (tokens === undefined) return undefined;
  const parser = new FoldParser(tokens, source);
  const value = parser.expression(0);
  return parser.isAtEnd() ? value : undefined;
}

function tokenize(source: FoldSource): Token[] | undefined {
  const { masked, original } = source;
  const tokens: Token[] = [];
  let at = 0;
  while (at < masked.length) {
    const char = masked[at] ?? '';
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    if (char === '"' || char === "'" || char === '`') {
      const close = masked.indexOf(char, at + 1);
      if (close === -1) return undefined;
      const inner = masked.slice(at + 1, close);
      // Interpolated code left in the masked text: not a constant.
      if (inner.trim() !== '') return undefined;
      tokens.push({ kind: 'string', value: unescape(original.slice(at + 1, close)) });
      at = close + 1;
      continue;
    }
    const number = /^\d[\d_]*(?:\.\d+)?[lLfFdD]?/.exec(masked.slice(at, at + 32));
    if (number !== null) {
      tokens.push({ kind: 'number', value: Number(number[0].replace(/[_lLfFdD]/g, '')) });
      at += number[0].length;
      continue;
    }
    const name = /^[$A-Za-z_][\w$]*/.exec(masked.slice(at, at + 64));
    if (name !== null) {
      tokens.push({ kind: 'name', value: name[0] });
      at += name[0].length;
      continue;
    }
    const operator = OPERATORS.find((op) => masked.startsWith(op, at));
    if (operator === undefined) return undefined;
    tokens.push({ kind: 'op', value: operator });
    at += operator.length;
  }
  return tokens;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, (_, char: string) => ({ n: '\n', t: '\t', r: '\r' })[char] ?? char);
}

class FoldParser {
  private index = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly source: FoldSource,
  ) {}

  isAtEnd(): boolean {
    return this.index >= this.tokens.length;
  }

  expression(minimum: number): Constant | undefined {
    let left = this.unary();
    for (;;) {
      const token = this.tokens[this.index];
      if (token === undefined) return left;
      const operator = token.kind === 'op' || token.kind === 'name' ? token.value : '';
      const precedence = PRECEDENCE[operator];
      if (precedence === undefined || precedence <= minimum) return left;
      this.index++;
      const right = this.expression(precedence);
      left =
        left === undefined || right === undefined ? undefined : applyBinary(operator, left, right);
    }
  }

  private unary(): Constant | undefined {
    const token = this.tokens[this.index];
    if (token?.kind === 'op' && (token.value === '!' || token.value === '-')) {
      this.index++;
      const value = this.unary();
      if (value === undefined) return undefined;
      return token.value === '!' ? !value : -Number(value);
    }
    if (token?.kind === 'name' && token.value === 'not') {
      this.index++;
      const value = this.unary();
      return value === undefined ? undefined : !value;
    }
    return this.postfix(this.primary());
  }

  private primary(): Constant | undefined {
    const token = this.tokens[this.index++];
    if (token === undefined) return undefined;
    if (token.kind === 'number' || token.kind === 'string') return token.value;
    if (token.kind === 'op' && token.value === '(') {
      const value = this.expression(0);
      const close = this.tokens[this.index++];
      return close?.kind === 'op' && close.value === ')' ? value : undefined;
    }
    if (token.kind === 'name') {
      if (token.value === 'true' || token.value === 'True') return true;
      if (token.value === 'false' || token.value === 'False') return false;
      return this.source.constantOf(token.value);
    }
    return undefined;
  }

  // `.charAt(n)`, `.length`, `[n]`, `.equals(x)`, `.substring(a, b)` on a folded value.
  private postfix(base: Constant | undefined): Constant | undefined {
    let value = base;
    for (;;) {
      const token = this.tokens[this.index];
      if (token?.kind === 'op' && token.value === '[') {
        this.index++;
        const index = this.expression(0);
        const close = this.tokens[this.index++];
        if (close?.kind !== 'op' || close.value !== ']') return undefined;
        value =
          typeof value === 'string' && typeof index === 'number' ? value.charAt(index) : undefined;
        continue;
      }
      if (token?.kind !== 'op' || token.value !== '.') return value;
      const method = this.tokens[this.index + 1];
      if (method?.kind !== 'name') return undefined;
      this.index += 2;
      const args = this.arguments();
      if (args === undefined && method.value !== 'length') return undefined;
      value = applyMethod(value, method.value, args ?? []);
    }
  }

  private arguments(): Constant[] | undefined {
    const open = this.tokens[this.index];
    if (open?.kind !== 'op' || open.value !== '(') return undefined;
    this.index++;
    const args: Constant[] = [];
    for (;;) {
      const token = this.tokens[this.index];
      if (token?.kind === 'op' && token.value === ')') {
        this.index++;
        return args;
      }
      const value = this.expression(0);
      if (value === undefined) return undefined;
      args.push(value);
      const separator = this.tokens[this.index];
      if (separator?.kind === 'op' && separator.value === ',') this.index++;
    }
  }
}

function applyMethod(
  value: Constant | undefined,
  method: string,
  args: Constant[],
): Constant | undefined {
  if (typeof value !== 'string') return undefined;
  const [first, second] = args;
  switch (method) {
    case 'length':
      return value.length;
    case 'charAt':
      return typeof first === 'number' ? value.charAt(first) : undefined;
    case 'substring':
    case 'slice':
      return typeof first === 'number'
        ? value.substring(first, typeof second === 'number' ? second : undefined)
        : undefined;
    case 'equals':
      return value === first;
    case 'toUpperCase':
    case 'upper':
      return value.toUpperCase();
    case 'toLowerCase':
    case 'lower':
      return value.toLowerCase();
    case 'trim':
    case 'strip':
      return value.trim();
    default:
      return undefined;
  }
}

function applyBinary(operator: string, left: Constant, right: Constant): Constant | undefined {
  switch (operator) {
    case '+':
      return typeof left === 'string' || typeof right === 'string'
        ? `${left}${right}`
        : Number(left) + Number(right);
    case '-':
      return Number(left) - Number(right);
    case '*':
      return Number(left) * Number(right);
    case '/':
      return Number(right) === 0 ? undefined : Number(left) / Number(right);
    case '%':
      return Number(right) === 0 ? undefined : Number(left) % Number(right);
    case '<':
      return left < right;
    case '>':
      return left > right;
    case '<=':
      return left <= right;
    case '>=':
      return left >= right;
    case '==':
    case '===':
      return left === right;
    case '!=':
    case '!==':
      return left !== right;
    case '&&':
    case 'and':
      return Boolean(left) && Boolean(right);
    case '||':
    case 'or':
      return Boolean(left) || Boolean(right);
    default:
      return undefined;
  }
}
