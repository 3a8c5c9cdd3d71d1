import type { Unwrap } from './unwrap-wrappers.js';
import { NONE, uncertain, type InnerRun } from './unwrapped.js';

const EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * `find … -exec cmd {} ;` runs cmd on each match and `-delete` removes them, which rules judge as `rm`
 * of unknown files. find itself is not transparent: it must be allowed as written too.
 */
export const unwrapFind: Unwrap = (_name, args, isCut) => {
  // A glob or `~` word could expand to `-exec` or `-delete` (a file can be named that).
  if (isCut) return uncertain("find's arguments are not all literal; quote its patterns");
  const inner: InnerRun[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] ?? '';
    if (word === '-delete') {
      inner.push({ kind: 'argv', argv: ['rm'], assignments: [], isArgsUnknown: true });
      continue;
    }
    if (!EXEC_ACTIONS.has(word)) continue;
    const start = index + 1;
    let end = start;
    while (end < args.length && !isExecEnd(args, end)) end += 1;
    const words = args.slice(start, end);
    index = end;
    if (words.length === 0) continue;
    const placeholder = words.findIndex((w) => w.includes('{}'));
    if (placeholder === 0) return uncertain('the command find runs is built from the file names');
    inner.push({
      kind: 'argv',
      argv: placeholder < 0 ? words : words.slice(0, placeholder),
      assignments: [],
      isArgsUnknown: placeholder >= 0,
    });
  }
  return inner.length === 0 ? NONE : { kind: 'runs', inner, isTransparent: false };
};

/** `;` ends -exec; `+` ends it only right after `{}`. */
function isExecEnd(args: readonly string[], index: number): boolean {
  const word = args[index];
  return word === ';' || (word === '+' && args[index - 1] === '{}');
}
