import type { SimpleCommand } from './command-lexer.js';

// Variables that make a later program run another program or read config that can (`GIT_CONFIG_*`, `GIT_SSH_COMMAND`, `BASH_ENV`).
const PROGRAM_VARIABLES = /^(?:GIT_CONFIG(?:_PARAMETERS|_COUNT|_KEY_\d+|_VALUE_\d+|_GLOBAL|_SYSTEM)?|GIT_(?:DIR|EXTERNAL_DIFF|SSH|SSH_COMMAND|PAGER|EDITOR|SEQUENCE_EDITOR|ASKPASS|PROXY_COMMAND|EXEC_PATH|TEMPLATE_DIR|ALLOW_PROTOCOL)|SSH_ASKPASS|PAGER|EDITOR|VISUAL|BASH_ENV|ENV|PS4|LD_PRELOAD|LD_LIBRARY_PATH|PROMPT_COMMAND)$/u; // prettier-ignore
// Builtins that name a variable as a word rather than an assignment before the command.
const SETTING_BUILTINS = new Set(['export', 'declare', 'typeset', 'readonly', 'local', 'read', 'printf', 'mapfile', 'readarray', 'getopts']); // prettier-ignore

/**
 * Why a command is unreadable because it renames a program or sets a variable that makes a later
 * command run one: `hash -p /bin/rm r`, `alias r=rm`, `enable -f`, `GIT_CONFIG_KEY_0=alias.p`.
 */
export function findProgramSetting(command: SimpleCommand): string | undefined {
  const [name, ...rest] = command.argv;
  const named = SETTING_BUILTINS.has(name ?? '') ? rest.map((w) => w.replace(/^-v/u, '')) : [];
  const variable = [...command.assignments, ...named].find((word) =>
    PROGRAM_VARIABLES.test(word.split('=')[0] ?? ''),
  );
  if (variable !== undefined)
    return `it sets ${variable.split('=')[0]}, which makes a later command run a program the check cannot see`;
  if (name === 'hash' && rest.some((w) => /^-\w*p/u.test(w)))
    return 'hash -p gives a program another name';
  if (name === 'alias' && rest.some((w) => w.includes('=')))
    return 'alias gives a command another name';
  if (name === 'enable' && rest.some((w) => /^-\w*f/u.test(w)))
    return 'enable -f loads a builtin from a library';
  return undefined;
}
