import type { Unwrap } from './unwrap-wrappers.js';
import { NONE, runArgv, runScript, uncertain } from './unwrapped.js';
import { readOptions } from './read-options.js';

/** Shells whose `-c` script the check reads with its own bash lexer. */
export const POSIX_SHELLS = new Set(['sh', 'bash', 'rbash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh']); // prettier-ignore
/** Shells with another syntax: what they run is never known. */
const OTHER_SHELLS = new Set(['fish', 'csh', 'tcsh', 'nu', 'pwsh', 'elvish', 'xonsh']);
const SHELL_LONG_VALUED = new Set(['--rcfile', '--init-file']);

/** `bash -c 'script'` reads the script; `bash` with no script file reads its input, which is uncertain. */
const unwrapShell: Unwrap = (name, args, isCut) => {
  let isCommand = false;
  let readsInput = false;
  let index = 0;
  while (index < args.length) {
    const word = args[index] ?? '';
    if (word === '--' || word === '-') {
      index += 1;
      break;
    }
    if (word.startsWith('--')) {
      index += SHELL_LONG_VALUED.has(word) ? 2 : 1;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/u.test(word)) break;
    index += 1;
    for (const letter of word.slice(1)) {
      if (letter === 'c' && word.startsWith('-')) isCommand = true;
      if (letter === 's') readsInput = true;
      if (letter === 'o' || letter === 'O') index += 1;
    }
  }
  const rest = args.slice(index);
  if (isCommand && OTHER_SHELLS.has(name))
    return uncertain(`${name} scripts are not read by the check`);
  if (isCommand) {
    const script = rest[0];
    if (script === undefined)
      return isCut ? uncertain(`the script given to ${name} -c is not literal`) : NONE;
    // zsh expands `=rm` to rm's path, a command name the bash lexer would read as `=rm`.
    if (name === 'zsh' && /(?:^|[\s;&|(`])=/u.test(script))
      return uncertain('zsh expands a word that starts with "=" to a program');
    return runScript(`${name} -c`, script, false);
  }
  if (readsInput || rest.length === 0)
    return uncertain(`${name} runs a script from its input, which the check cannot read`);
  return NONE; // `bash file.sh` runs a file: the command is judged as written.
};

const unwrapSu = (name: string, args: string[], isCut: boolean) => {
  const read = readOptions(
    {
      flags: 'lmpfP',
      valued: 'csgGw',
      longFlags: ['--login', '--preserve-environment', '--pty', '--fast'],
      longValued: ['--command', '--session-command', '--shell', '--group', '--supp-group', '--whitelist-environment'], // prettier-ignore
    },
    args.filter((word) => word !== '-'),
  );
  if (read.kind !== 'read') return uncertain(`${name}'s options are not known to the check`);
  const script = read.values.get('-c') ?? read.values.get('--command');
  if (script !== undefined) return runScript(`${name} -c`, script, false);
  if (isCut) return uncertain(`what ${name} runs is not known literally`);
  return uncertain(`${name} starts a shell that reads its input`);
};

/** `script -c 'cmd' [file]` runs cmd through a shell and writes a typescript file, so script itself must be allowed too. */
const unwrapScript: Unwrap = (name, args, isCut) => {
  const read = readOptions(
    {
      flags: 'aefqtkr',
      valued: 'cOIBTmEo',
      longFlags: ['--append', '--return', '--flush', '--force', '--quiet'],
      longValued: ['--command', '--log-out', '--log-in', '--log-io', '--log-timing', '--logging-format', '--output-limit', '--echo'], // prettier-ignore
      longOptional: ['--timing'],
    },
    args,
  );
  if (read.kind !== 'read') return uncertain(`${name}'s options are not known to the check`);
  const command = read.values.get('-c') ?? read.values.get('--command');
  if (command !== undefined) return runScript(`${name} -c`, command, false);
  if (isCut) return uncertain(`what ${name} runs is not known literally`);
  return uncertain(`${name} starts a shell that reads its input`);
};

/** `watch cmd args` joins its words and runs them with `sh -c`; `watch -x` runs them as they are. */
const unwrapWatch: Unwrap = (name, args, isCut) => {
  const read = readOptions(
    {
      flags: 'bcdegtxprw',
      valued: 'nqs',
      longFlags: ['--beep', '--color', '--no-color', '--errexit', '--chgexit', '--no-title', '--exec', '--precise', '--no-rerun', '--no-wrap', '--no-linewrap'], // prettier-ignore
      longValued: ['--interval', '--equexit', '--shotsdir'],
      longOptional: ['--differences'],
    },
    args,
  );
  if (read.kind !== 'read') return uncertain(`${name}'s options are not known to the check`);
  if (isCut) return uncertain(`what ${name} runs is not known literally`);
  if (read.values.has('-x') || read.values.has('--exec'))
    return runArgv(name, read.rest, isCut, { isTransparent: true });
  return runScript(name, read.rest.join(' '), true);
};

/** `trap 'cmd' EXIT` runs cmd later in the same shell. */
const unwrapTrap: Unwrap = (name, args, isCut) => {
  const words = args[0] === '--' ? args.slice(1) : args;
  const action = words[0];
  if (action === undefined) return isCut ? uncertain('the trap action is not literal') : NONE;
  if (action === '-' || action.startsWith('-')) return NONE;
  return runScript(name, action, true);
};

export const SHELL_WRAPPERS: Readonly<Record<string, Unwrap>> = {
  ...Object.fromEntries([...POSIX_SHELLS, ...OTHER_SHELLS].map((shell) => [shell, unwrapShell])),
  su: unwrapSu,
  script: unwrapScript,
  watch: unwrapWatch,
  trap: unwrapTrap,
};
