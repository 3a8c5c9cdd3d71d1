import type { FileContext } from './file-context.js';

// How far up a declaration is looked for; a longer function's name says little about one line.
const MAX_LINES_UP = 40;
const FUNCTION_HEADER =
  /\b(?:function\s*\*?\s*([\w$]+)|def\s+(?:self\.)?([\w?!]+)|func\s+(?:\([^)]*\)\s*)?([\w]+)|(?:const|let|var)\s+([\w$]+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[\w$]+)\s*=>)|^\s*(?:(?:public|private|protected|static|final|async|override|synchronized|virtual|internal)\s+)*(?:[\w$<>[\],.?]+\s+)?([\w$]+)\s*\([^;]*\)\s*(?:throws\s+[\w.,\s]+)?\{?\s*$/;
const CLASS_HEADER = /\b(?:class|interface|struct|module|object|trait)\s+([\w$]+)/;
const NOT_A_NAME =
  /^(?:if|for|while|switch|catch|return|function|new|else|do|try|with|synchronized|using)$/;

/** The names of the function and the class a line sits in (either may be empty), read from lines above it. */
export function enclosingNames(file: FileContext, line: number): string {
  let functionName = '';
  for (let current = line; current >= Math.max(1, line - MAX_LINES_UP); current--) {
    const text = file.lines.textOf(current);
    if (functionName === '') {
      const match = FUNCTION_HEADER.exec(text);
      const name = match?.slice(1).find((group) => group !== undefined);
      if (name !== undefined && !NOT_A_NAME.test(name)) functionName = name;
    }
    const classMatch = CLASS_HEADER.exec(text);
    if (classMatch?.[1] !== undefined) return `${functionName} ${classMatch[1]}`;
  }
  return functionName;
}
