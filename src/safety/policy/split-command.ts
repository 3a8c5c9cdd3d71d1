import { lexCommand, type CommandSplit } from './command-lexer.js';
import { resolveCommands } from './resolve-commands.js';

export type { CommandSplit, Redirection, SimpleCommand } from './command-lexer.js';

/**
 * Split a shell command into the simple commands it runs, for the permission check.
 *
 * sh-syntax (mvdan/sh in WASM) serialises statements but not command kinds (`Cmd` comes back as
 * `{}`), so it cannot split by itself. The conservative lexer splits and resolveCommands sees through
 * wrappers and `sh -c`; sh-syntax then acts as the real bash parser that must accept the text (and
 * every inner script) and agree on the number of top-level statements. Any disagreement, or anything
 * the lexer cannot know literally, is `uncertain`.
 */
export async function splitCommand(command: string): Promise<CommandSplit> {
  const { split, innerScripts } = splitCommandQuickly(command);
  if (split.kind === 'uncertain') return split;
  // Loaded on first use, so commands that never check a shell command never load the parser.
  const { LangVariant, parse } = await import('sh-syntax');
  for (const { script, statements: expected } of [
    { script: command, statements: split.topLevelStatements },
    ...innerScripts,
  ]) {
    let statements: number;
    try {
      const file = await parse(script, { variant: LangVariant.LangBash, keepComments: false });
      statements = file.Stmts.length;
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return {
        kind: 'uncertain',
        reason: `bash would not parse it (${detail})`,
        partial: split.commands,
      };
    }
    if (statements !== expected) {
      return {
        kind: 'uncertain',
        reason: `the shell parser sees ${statements} statement(s) where the check sees ${expected}`,
        partial: split.commands,
      };
    }
  }
  return split;
}

/** The lexer and the wrapper resolution without the parser's confirmation, for synchronous callers. */
export function splitCommandQuickly(command: string): ReturnType<typeof resolveCommands> {
  return resolveCommands(lexCommand(command));
}
