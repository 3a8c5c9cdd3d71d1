/** One redirection of a simple command, as written. */
export interface Redirection {
  op: string;
  /** The literal target word; '' when the target is built by an expansion. */
  target: string;
  /** fd duplications (`2>&1`), closes (`>&-`), `/dev/null` and literal here-strings cannot write or read files. */
  isHarmless: boolean;
}

/** One simple command: what a permission rule is matched against. */
export interface SimpleCommand {
  /** `NAME=value` words before the command name, as written after quote removal. */
  assignments: string[];
  /** The literal words, cut before the first word an expansion builds (substitution, glob, brace, tilde). */
  argv: string[];
  /** Whether argv was cut: a later word is not known literally. */
  isDynamic: boolean;
  /** Whether an assignment's value is built by an expansion (`X=$(cmd) git status`). */
  hasDynamicAssignment: boolean;
  redirections: Redirection[];
  /** A wrapper that only runs another command (`env`, `nice`, `xargs`): allow rules judge what it runs. */
  isTransparent?: boolean;
}

export type CommandSplit =
  | { kind: 'parsed'; commands: SimpleCommand[]; topLevelStatements: number }
  /** `partial`: the commands seen before the lexer gave up, for deny rules only. */
  | { kind: 'uncertain'; reason: string; partial: SimpleCommand[] };

/** Nesting of substitutions, subshells and groups; deeper is not a command a person means. */
const MAX_NESTING = 20;
/** 64 KiB: a longer one-line command is a script, and scripts are asked about. */
export const MAX_COMMAND_CHARS = 64 * 1024;

// Printable ASCII, tab and newline only: anything else may be a look-alike of an operator or quote (U+037E, U+FF1B).
const ALLOWED_CHARS = /^[\t\n\x20-\x7e]*$/u;
const BLANK = new Set([' ', '\t']);
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const GLOB_CHARS = new Set(['*', '?', '[', ']', '{', '}']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/u;
const RESERVED_WORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'in',
  'select',
  'function',
  'time',
  'coproc',
  '[[',
  ']]',
  '}',
  '{',
]);
const REDIRECT_OP = /^(?:&>>?|\d*(?:<<<|<<-|<<|<>|<&|<\(|>>|>&|>\||>\(|>|<))/u;

class Uncertain extends Error {}

interface LexedWord {
  text: string;
  isLiteral: boolean;
  hasGlob: boolean;
}

/**
 * A conservative bash lexer for the permission check. It understands lists, pipelines, subshells,
 * groups, quotes, backslashes, comments, assignments, redirections and command substitutions, and
 * answers `uncertain` for everything else (variables, arithmetic, here-documents, control flow).
 */
export function lexCommand(command: string): CommandSplit {
  const lexer = new CommandLexer(command, [], 0);
  try {
    if (command.length > MAX_COMMAND_CHARS) throw new Uncertain('the command is too long to check');
    const bad = ALLOWED_CHARS.test(command)
      ? undefined
      : [...command].find((c) => !ALLOWED_CHARS.test(c));
    if (bad !== undefined) {
      const code = (bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      throw new Uncertain(
        `it contains U+${code}, a character the check does not accept in commands`,
      );
    }
    lexer.parseList(null);
    if (lexer.commands.length === 0) throw new Uncertain('there is no command in it');
    return {
      kind: 'parsed',
      commands: lexer.commands,
      topLevelStatements: lexer.topLevelStatements,
    };
  } catch (error) {
    if (!(error instanceof Uncertain)) throw error;
    return { kind: 'uncertain', reason: error.message, partial: lexer.commands };
  }
}

class CommandLexer {
  pos = 0;
  topLevelStatements = 0;

  constructor(
    readonly text: string,
    readonly commands: SimpleCommand[],
    readonly depth: number,
  ) {
    if (depth > MAX_NESTING) throw new Uncertain('it nests too deeply');
  }

  private peek(offset = 0): string | undefined {
    return this.text[this.pos + offset];
  }

  private startsWith(token: string): boolean {
    return this.text.startsWith(token, this.pos);
  }

  private skipBlanks(): void {
    for (;;) {
      const c = this.peek();
      if (c !== undefined && BLANK.has(c)) this.pos += 1;
      else if (this.startsWith('\\\n')) this.pos += 2;
      else return;
    }
  }

  private skipComment(): void {
    while (this.peek() !== undefined && this.peek() !== '\n') this.pos += 1;
  }

  /** A list of pipelines up to `close` (or the end); every separator only separates, so it is flattened. */
  parseList(close: ')' | '}' | null): void {
    let isStatementStart = true;
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (c === undefined) {
        if (close !== null) throw new Uncertain(`a "${close === ')' ? '(' : '{'}" is not closed`);
        return;
      }
      if (c === '#') {
        this.skipComment();
        continue;
      }
      if (this.startsWith(';;') || this.startsWith(';&'))
        throw new Uncertain('it uses case syntax');
      if (c === '\n' || c === ';' || (c === '&' && this.peek(1) !== '&' && this.peek(1) !== '>')) {
        this.pos += 1;
        isStatementStart = true;
        continue;
      }
      if (this.startsWith('&&') || this.startsWith('||') || this.startsWith('|&')) {
        this.pos += 2;
        continue;
      }
      if (c === '|') {
        this.pos += 1;
        continue;
      }
      if (c === ')') {
        if (close !== ')') throw new Uncertain('a ")" closes nothing');
        this.pos += 1;
        return;
      }
      if (close === '}' && c === '}' && this.isWordEndAt(this.pos + 1)) {
        this.pos += 1;
        return;
      }
      if (isStatementStart && close === null && this.depth === 0) this.topLevelStatements += 1;
      isStatementStart = false;
      this.parseCommand();
    }
  }

  private isWordEndAt(index: number): boolean {
    const c = this.text[index];
    return c === undefined || WORD_END.has(c);
  }

  private parseCommand(): void {
    const first = this.commands.length;
    if (this.peek() === '(') {
      if (this.peek(1) === '(') throw new Uncertain('it uses arithmetic');
      this.pos += 1;
      new CommandLexer(this.text, this.commands, this.depth + 1).parseNested(this, ')');
    } else if (this.peek() === '{' && this.isBlankOrNewlineAt(this.pos + 1)) {
      this.pos += 1;
      new CommandLexer(this.text, this.commands, this.depth + 1).parseNested(this, '}');
    } else {
      this.parseSimple();
      return;
    }
    // Redirections after a subshell or group apply to every command inside it.
    const redirections = this.parseTrailingRedirections();
    for (const command of this.commands.slice(first)) command.redirections.push(...redirections);
  }

  private isBlankOrNewlineAt(index: number): boolean {
    const c = this.text[index];
    return c === ' ' || c === '\t' || c === '\n';
  }

  /** Parse a nested list in the parent's text and hand the position back. */
  private parseNested(parent: CommandLexer, close: ')' | '}'): void {
    this.pos = parent.pos;
    this.parseList(close);
    parent.pos = this.pos;
  }

  private parseTrailingRedirections(): Redirection[] {
    const redirections: Redirection[] = [];
    for (;;) {
      this.skipBlanks();
      const redirection = this.tryRedirection();
      if (redirection === undefined) break;
      redirections.push(redirection);
    }
    const c = this.peek();
    if (c !== undefined && !WORD_END.has(c) && c !== '#')
      throw new Uncertain('a word follows a subshell or group');
    return redirections;
  }

  private parseSimple(): void {
    const command: SimpleCommand = {
      assignments: [],
      argv: [],
      isDynamic: false,
      hasDynamicAssignment: false,
      redirections: [],
    };
    let hasCommandWord = false;
    let isNegationAllowed = true;
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (c === undefined || c === '#') break;
      const redirection = this.tryRedirection();
      if (redirection !== undefined) {
        command.redirections.push(redirection);
        continue;
      }
      if (c === '(') throw new Uncertain('it defines a function or uses an array or pattern');
      if (WORD_END.has(c)) break;
      const word = this.readWord();
      if (!hasCommandWord) {
        if (word.text === '!' && word.isLiteral && isNegationAllowed) {
          isNegationAllowed = false;
          continue;
        }
        if (ASSIGNMENT.test(word.text)) {
          if (this.peek() === '(') throw new Uncertain('it assigns an array');
          command.assignments.push(word.text);
          if (!word.isLiteral || word.hasGlob) command.hasDynamicAssignment = true;
          continue;
        }
        if (RESERVED_WORDS.has(word.text))
          throw new Uncertain(`it uses the shell keyword "${word.text}"`);
        if (!word.isLiteral || word.hasGlob)
          throw new Uncertain('the command name is not a literal word');
        if (word.text === '') throw new Uncertain('the command name is empty');
        hasCommandWord = true;
      }
      if (!word.isLiteral || word.hasGlob) command.isDynamic = true;
      else if (!command.isDynamic) command.argv.push(word.text);
    }
    const isEmpty =
      command.assignments.length === 0 &&
      command.argv.length === 0 &&
      command.redirections.length === 0;
    if (isEmpty) throw new Uncertain('it has an empty command');
    this.commands.push(command);
  }

  private tryRedirection(): Redirection | undefined {
    const match = REDIRECT_OP.exec(this.text.slice(this.pos, this.pos + 16));
    if (match === null) return undefined;
    const op = match[0];
    if (/(?:^|[^<])<<-?$/u.test(op)) throw new Uncertain('it uses a here-document');
    if (op.endsWith('(')) throw new Uncertain('it uses process substitution');
    this.pos += op.length;
    this.skipBlanks();
    if (/[<>]&$/u.test(op) && /^(?:\d+|-)(?=$|[\s;&|()<>])/u.test(this.text.slice(this.pos))) {
      const fd = /^(?:\d+|-)/u.exec(this.text.slice(this.pos))?.[0] ?? '';
      this.pos += fd.length;
      return { op, target: fd, isHarmless: true };
    }
    const c = this.peek();
    if (c === undefined || WORD_END.has(c))
      throw new Uncertain(`the redirection "${op}" has no target`);
    const word = this.readWord();
    const target = word.isLiteral && !word.hasGlob ? word.text : '';
    const isHarmless = target === '/dev/null' || (op.endsWith('<<<') && target !== '');
    return { op, target, isHarmless };
  }

  private readWord(): LexedWord {
    let text = '';
    let isLiteral = true;
    let hasGlob = false;
    let hasBrace = false;
    const start = this.pos;
    for (;;) {
      const c = this.peek();
      if (c === undefined || WORD_END.has(c)) break;
      if (c === "'") {
        const end = this.text.indexOf("'", this.pos + 1);
        if (end < 0) throw new Uncertain('a single quote is not closed');
        text += this.text.slice(this.pos + 1, end);
        this.pos = end + 1;
      } else if (c === '"') {
        const inner = this.readDoubleQuoted();
        text += inner.text;
        isLiteral &&= inner.isLiteral;
      } else if (c === '\\') {
        const next = this.peek(1);
        if (next === undefined) throw new Uncertain('it ends with a backslash');
        if (next !== '\n') text += next;
        this.pos += 2;
      } else if (c === '$') {
        this.readDollar();
        isLiteral = false;
      } else if (c === '`') {
        this.readBackticks(false);
        isLiteral = false;
      } else {
        // Braces expand only around a comma or `..` (`{a,b}`, `{1..3}`); `{}` and `-I{}` are literal.
        if (c === '{' || c === '}') hasBrace = true;
        else if (GLOB_CHARS.has(c) || (c === '~' && this.pos === start)) hasGlob = true;
        text += c;
        this.pos += 1;
      }
    }
    return { text, isLiteral, hasGlob: hasGlob || (hasBrace && /,|\.\./u.test(text)) };
  }

  private readDoubleQuoted(): { text: string; isLiteral: boolean } {
    this.pos += 1;
    let text = '';
    let isLiteral = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new Uncertain('a double quote is not closed');
      if (c === '"') {
        this.pos += 1;
        return { text, isLiteral };
      }
      if (c === '\\') {
        const next = this.peek(1);
        if (next === undefined) throw new Uncertain('a double quote is not closed');
        if (next === '\n') this.pos += 2;
        else if ('$`"\\'.includes(next)) {
          text += next;
          this.pos += 2;
        } else {
          text += c;
          this.pos += 1;
        }
      } else if (c === '$') {
        this.readDollar();
        isLiteral = false;
      } else if (c === '`') {
        this.readBackticks(true);
        isLiteral = false;
      } else {
        text += c;
        this.pos += 1;
      }
    }
  }

  /** `$(...)` is split like any list; every other expansion cannot be known literally. */
  private readDollar(): void {
    if (this.startsWith('$((')) throw new Uncertain('it uses arithmetic');
    if (!this.startsWith('$(')) throw new Uncertain('it expands a variable or parameter');
    const nested = new CommandLexer(this.text, this.commands, this.depth + 1);
    this.pos += 2;
    nested.parseNested(this, ')');
  }

  private readBackticks(isInDoubleQuotes: boolean): void {
    let inner = '';
    let index = this.pos + 1;
    for (;;) {
      const c = this.text[index];
      if (c === undefined) throw new Uncertain('a backquote is not closed');
      if (c === '`') break;
      if (c === '\\') {
        const next = this.text[index + 1];
        if (next === '`' || isInDoubleQuotes) throw new Uncertain('it nests backquotes');
        if (next === '$' || next === '\\') {
          inner += next;
          index += 2;
          continue;
        }
      }
      inner += c;
      index += 1;
    }
    this.pos = index + 1;
    const nested = new CommandLexer(inner, this.commands, this.depth + 1);
    nested.parseList(null);
    if (nested.pos < inner.length) throw new Uncertain('a backquoted command was not fully read');
  }
}
