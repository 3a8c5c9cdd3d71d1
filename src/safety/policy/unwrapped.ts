/** One command a wrapper runs: literal words, or a script a shell will parse. */
export type InnerRun =
  | {
      kind: 'argv';
      argv: string[];
      /** `NAME=value` words the wrapper sets (`env FOO=1 cmd`), judged like shell assignments. */
      assignments: string[];
      /** More words come at run time (`xargs`, `find -exec … {}`), so only prefix rules can allow it. */
      isArgsUnknown: boolean;
    }
  | { kind: 'script'; script: string; via: string };

/** What a wrapper does with its arguments. */
export type Unwrapped =
  /** isTransparent: allow rules judge only what it runs (env, nice, xargs); otherwise the wrapper too (sudo, find, sh -c). */
  | { kind: 'runs'; inner: InnerRun[]; isTransparent: boolean }
  /** It runs no other command (`env` alone, `command -v x`, `bash script.sh` runs a file). */
  | { kind: 'none' }
  | { kind: 'uncertain'; reason: string };

export const NONE: Unwrapped = { kind: 'none' };

export function uncertain(reason: string): Unwrapped {
  return { kind: 'uncertain', reason };
}

/** The wrapper runs argv; with no words left, it runs nothing, unless the words were cut by a glob. */
export function runArgv(
  name: string,
  argv: string[],
  isCut: boolean,
  options: { isTransparent: boolean; assignments?: string[]; isArgsUnknown?: boolean },
): Unwrapped {
  if (argv.length === 0) {
    return isCut ? uncertain(`the command that ${name} runs is not known literally`) : NONE;
  }
  return {
    kind: 'runs',
    isTransparent: options.isTransparent,
    inner: [
      {
        kind: 'argv',
        argv,
        assignments: options.assignments ?? [],
        isArgsUnknown: options.isArgsUnknown ?? false,
      },
    ],
  };
}

/** The wrapper runs a script string through a shell (`sh -c`, `script -c`, `watch`, `trap`). */
export function runScript(via: string, script: string, isTransparent: boolean): Unwrapped {
  if (script.trim() === '') return NONE;
  return { kind: 'runs', isTransparent, inner: [{ kind: 'script', script, via }] };
}
