import type { FileContext } from './file-context.js';

// How far up a declaration is looked for; a longer function's name says little about one line.
const MAX_LINES_UP = 40;
const FUNCTION_HEADER =
  /\b(?:function\s*\*?\s*([\w$]+)|def\s+(?:self\.)?([\w?!]+)|func\s+(?:\([^)]*\)\s*)?([\w]+)|(?:const|let|var)\s+([\w$]+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[\w$]+)\s*=>)|^\s*(?:(?:public|private|protected|static|final|async|override|synchronized|virtual|internal)\s+)*(?:[\w$<>[\],.?]+\s+)?([\w$]+)\s*\([^;]*\)\s*(?:throws\s+[\w.,\s]+|:\s*[^=;{]+)?\{?\s*$/;
const CLASS_HEADER = /\b(?:class|interface|struct|module|object|trait)\s+([\w$]+)/;
const NOT_A_NAME =
  /^(?:if|for|while|switch|catch|return|function|new|else|do|try|with|synchronized|using)$/;

/**
 * The name of the function a line sits in, read from the lines above it; for a line outside any
 * function (a field), the name of its class. Empty when neither is found.
 */
export function enclosingNames(file: FileContext, line: number): string {
  for (let current = line; current >= Math.max(1, line - MAX_LINES_UP); current--) {
    const text = file.lines.textOf(current);
    const match = FUNCTION_HEADER.exec(text);
    const name = match?.slice(1).find((group) => group !== undefined);
    if (name !== undefined && !NOT_A_NAME.test(name)) return name;
    const classMatch = CLASS_HEADER.exec(text);
    if (classMatch?.[1] !== undefined) return classMatch[1];
  }
  return '';
}
