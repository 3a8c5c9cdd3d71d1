import { LangVariant, parse } from 'sh-syntax';
import { lexCommand, type CommandSplit } from './command-lexer.js';

export type { CommandSplit, Redirection, SimpleCommand } from './command-lexer.js';

/**
 * Split a shell command into its simple commands for the permission check.
 *
 * sh-syntax (mvdan/sh in WASM) serialises statements but not command kinds (`Cmd` comes back as
 * `{}`), so it cannot split by itself. The conservative lexer splits; sh-syntax then acts as the
 * real bash parser that must accept the text and agree on the number of top-level statements.
 * Any disagreement, or anything the lexer cannot know literally, is `uncertain`.
 */
export async function splitCommand(command: string): Promise<CommandSplit> {
  const lexed = lexCommand(command);
  if (lexed.kind === 'uncertain') return lexed;
  let statements: number;
  try {
    const file = await parse(command, { variant: LangVariant.LangBash, keepComments: false });
    statements = file.Stmts.length;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      kind: 'uncertain',
      reason: `bash would not parse it (${detail})`,
      partial: lexed.commands,
    };
  }
  if (statements !== lexed.topLevelStatements) {
    return {
      kind: 'uncertain',
      reason: `the shell parser sees ${statements} statement(s) where the check sees ${lexed.topLevelStatements}`,
      partial: lexed.commands,
    };
  }
  return lexed;
}
