import path from 'node:path';
import { lexCommand, type CommandSplit, type SimpleCommand } from './command-lexer.js';
import { findProgramSetting } from './command-setting-variables.js';
import { findUncertainOption } from './global-options.js';
import { unwrapFind } from './unwrap-find.js';
import { SHELL_WRAPPERS } from './unwrap-shells.js';
import { WRAPPERS, type Unwrap } from './unwrap-wrappers.js';
import type { InnerRun } from './unwrapped.js';

/** Wrappers inside wrappers inside `sh -c`: deeper is not a command a person means. */
const MAX_WRAPPER_DEPTH = 8;

/** Commands that run text the check cannot read. */
const UNREADABLE: Readonly<Record<string, string>> = {
  eval: 'eval runs text put together at run time',
  source: 'source runs a file the check cannot read',
  '.': '. runs a file the check cannot read',
  let: 'let evaluates arithmetic, which can run commands',
  parallel: 'parallel builds the commands it runs from its input',
};

// Builtins that evaluate an array subscript, where `a[$(cmd)]` runs cmd even from a quoted word.
const SUBSCRIPT_BUILTINS = new Set(['declare', 'typeset', 'local', 'export', 'readonly', 'unset', 'printf', 'read', 'test', '[', 'mapfile', 'readarray', 'wait']); // prettier-ignore
const SUBSCRIPT_WITH_EXPANSION = /\[[^\]]*[$`]/u;

/** A shell script the resolution read with the lexer, for the real parser to confirm. */
export interface InnerScript {
  script: string;
  statements: number;
}

export interface Resolution {
  split: CommandSplit;
  innerScripts: InnerScript[];
}

interface State {
  commands: SimpleCommand[];
  innerScripts: InnerScript[];
  uncertainReason?: string;
}

/**
 * Reduce each simple command to what it actually runs: wrappers (`env`, `nice`, `sudo`, `xargs`,
 * `find -exec`) add the command they run, `sh -c 'script'` adds the script's commands, and a command
 * that runs text the check cannot read makes the whole split uncertain. The written command stays in
 * the list; a transparent wrapper is marked so that allow rules judge only what it runs.
 */
export function resolveCommands(split: CommandSplit): Resolution {
  const state: State = { commands: [], innerScripts: [] };
  const written = split.kind === 'parsed' ? split.commands : split.partial;
  for (const command of written) resolveInto(command, 0, state);
  if (split.kind === 'uncertain')
    return { split: { ...split, partial: state.commands }, innerScripts: state.innerScripts };
  if (state.uncertainReason !== undefined) {
    return {
      split: { kind: 'uncertain', reason: state.uncertainReason, partial: state.commands },
      innerScripts: state.innerScripts,
    };
  }
  return { split: { ...split, commands: state.commands }, innerScripts: state.innerScripts };
}

/** The command name as rules see it: quotes are gone already, and a path is cut to its last part. */
export function commandNameOf(command: SimpleCommand): string | undefined {
  const first = command.argv[0];
  return first === undefined ? undefined : path.posix.basename(first);
}

function resolveInto(command: SimpleCommand, depth: number, state: State): void {
  state.commands.push(command);
  const setting = findProgramSetting(command);
  if (setting !== undefined) state.uncertainReason ??= setting;
  const name = commandNameOf(command);
  if (name === undefined) return;
  const why = reasonUncertain(name, command, depth);
  if (why !== undefined) {
    state.uncertainReason ??= why;
    return;
  }
  const unwrap: Unwrap | undefined =
    WRAPPERS[name] ?? SHELL_WRAPPERS[name] ?? (name === 'find' ? unwrapFind : undefined);
  if (unwrap === undefined) return;
  const result = unwrap(name, command.argv.slice(1), command.isDynamic);
  if (result.kind === 'uncertain') state.uncertainReason ??= result.reason;
  if (result.kind !== 'runs') return;
  if (result.isTransparent) state.commands[state.commands.length - 1] = { ...command, isTransparent: true }; // prettier-ignore
  for (const inner of result.inner) resolveInner(inner, command, depth, state);
}

function reasonUncertain(name: string, command: SimpleCommand, depth: number): string | undefined {
  if (depth > MAX_WRAPPER_DEPTH) return 'wrappers and shells nest too deeply';
  const unreadable = UNREADABLE[name];
  if (unreadable !== undefined) return unreadable;
  if (SUBSCRIPT_BUILTINS.has(name) && command.argv.some((w) => SUBSCRIPT_WITH_EXPANSION.test(w)))
    return `${name} evaluates an array subscript that can run a command`;
  return findUncertainOption([name, ...command.argv.slice(1)]);
}

/** The inner command runs with the outer one's assignments and redirections. */
function resolveInner(inner: InnerRun, outer: SimpleCommand, depth: number, state: State): void {
  if (inner.kind === 'argv') {
    resolveInto(
      {
        assignments: [...outer.assignments, ...inner.assignments],
        argv: inner.argv,
        isDynamic: inner.isArgsUnknown || outer.isDynamic,
        hasDynamicAssignment: outer.hasDynamicAssignment,
        redirections: outer.redirections,
      },
      depth + 1,
      state,
    );
    return;
  }
  const lexed = lexCommand(inner.script);
  const commands = lexed.kind === 'parsed' ? lexed.commands : lexed.partial;
  if (lexed.kind === 'uncertain')
    state.uncertainReason ??= `the script given to ${inner.via} is unclear: ${lexed.reason}`;
  else state.innerScripts.push({ script: inner.script, statements: lexed.topLevelStatements });
  for (const command of commands) {
    resolveInto(
      {
        ...command,
        assignments: [...outer.assignments, ...command.assignments],
        hasDynamicAssignment: outer.hasDynamicAssignment || command.hasDynamicAssignment,
        redirections: [...command.redirections, ...outer.redirections],
      },
      depth + 1,
      state,
    );
  }
}
