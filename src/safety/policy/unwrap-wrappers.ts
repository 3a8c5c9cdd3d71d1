import { readOptions, type OptionSpec } from './read-options.js';
import { NONE, runArgv, runScript, uncertain, type Unwrapped } from './unwrapped.js';

/** How one wrapper turns its arguments into the command it runs; isCut: later words are unknown. */
export type Unwrap = (name: string, args: string[], isCut: boolean) => Unwrapped;

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/u;
const NUMBER = /^\d+$/u;

/** Read options by spec, then hand the operands on; an unknown option makes the command uncertain. */
function withOptions(
  spec: OptionSpec,
  then: (values: Map<string, string>, rest: string[], name: string, isCut: boolean) => Unwrapped,
): Unwrap {
  return (name, args, isCut) => {
    const read = readOptions(spec, args);
    if (read.kind === 'unknown')
      return uncertain(`${name} has the option ${read.option}, which the check does not know`);
    if (read.kind === 'short') return isCut ? uncertain(`${name}'s options are not literal`) : NONE;
    return then(read.values, read.rest, name, isCut);
  };
}

/** Options, then the command: nohup, nice, stdbuf, setsid, unbuffer and the like. */
function optionsThenCommand(spec: OptionSpec, isTransparent: boolean, stopsIf = ''): Unwrap {
  return withOptions(spec, (values, rest, name, isCut) => {
    if ([...stopsIf].some((letter) => values.has(`-${letter}`))) return NONE;
    return runArgv(name, rest, isCut, { isTransparent });
  });
}

/** Options, one operand (a duration, a CPU mask, a lock file, a new root), then the command. */
function optionsOperandCommand(spec: OptionSpec, isTransparent: boolean, stopsIf = ''): Unwrap {
  return withOptions(spec, (values, rest, name, isCut) => {
    if ([...stopsIf].some((letter) => values.has(`-${letter}`))) return NONE;
    if (rest.length === 0) return isCut ? uncertain(`${name}'s operands are not literal`) : NONE;
    return runArgv(name, rest.slice(1), isCut, { isTransparent });
  });
}

const unwrapEnv: Unwrap = (name, args, isCut) => {
  let words = args;
  const assignments: string[] = [];
  for (let guard = 0; guard < 16; guard += 1) {
    const read = readOptions(
      {
        flags: 'i0v',
        valued: 'uCSP',
        longFlags: ['--ignore-environment', '--null', '--debug', '--list-signal-handling'],
        longValued: ['--unset', '--chdir', '--split-string'],
        longOptional: ['--ignore-signal', '--default-signal', '--block-signal'],
      },
      words[0] === '-' ? words.slice(1) : words,
    );
    if (read.kind === 'unknown')
      return uncertain(`env has the option ${read.option}, which the check does not know`);
    if (read.kind === 'short') return isCut ? uncertain("env's options are not literal") : NONE;
    let rest = read.rest;
    while (rest[0] !== undefined && ASSIGNMENT.test(rest[0])) {
      assignments.push(rest[0]);
      rest = rest.slice(1);
    }
    const split = read.values.get('-S') ?? read.values.get('--split-string');
    if (split === undefined)
      return runArgv(name, rest, isCut, { isTransparent: true, assignments });
    // -S splits one string into words; quotes and `${VAR}` in it are read by the caller's lexer.
    const splitWords = splitEnvString(split);
    if (splitWords === undefined) return uncertain('env -S splits a string the check cannot read');
    words = [...splitWords, ...rest];
  }
  return uncertain('env -S nests too deeply');
};

/** env -S's string: plain words only; quotes, escapes and `$` make it uncertain. */
function splitEnvString(text: string): string[] | undefined {
  if (/["'\\$#]/u.test(text)) return undefined;
  return text.split(/[ \t\n]+/u).filter((word) => word !== '');
}

const unwrapNice: Unwrap = (name, args, isCut) => {
  // `nice -5 cmd` and `nice --5 cmd` are the old adjustment forms.
  const words = /^--?\d+$/u.test(args[0] ?? '') ? args.slice(1) : args;
  return optionsThenCommand({ flags: '', valued: 'n', longValued: ['--adjustment'] }, true)(
    name,
    words,
    isCut,
  );
};

const unwrapTimeout = optionsOperandCommand(
  {
    flags: 'v',
    valued: 'sk',
    longFlags: ['--preserve-status', '--foreground', '--verbose'],
    longValued: ['--signal', '--kill-after'],
  },
  true,
);

const unwrapFlock = withOptions(
  {
    flags: 'sexunoFh',
    valued: 'wEc',
    longFlags: [
      '--shared',
      '--exclusive',
      '--unlock',
      '--nonblock',
      '--close',
      '--no-fork',
      '--verbose',
    ],
    longValued: ['--timeout', '--conflict-exit-code', '--command'],
  },
  (values, rest, name, isCut) => {
    const before = values.get('-c') ?? values.get('--command');
    if (before !== undefined) return runScript(name, before, false);
    if (rest.length === 0) return isCut ? uncertain("flock's operands are not literal") : NONE;
    const after = rest.slice(1);
    if (after[0] === '-c' || after[0] === '--command') {
      const script = after[1];
      if (script === undefined) return isCut ? uncertain("flock's command is not literal") : NONE;
      return runScript(name, script, false);
    }
    return runArgv(name, after, isCut, { isTransparent: false });
  },
);

const unwrapXargs = withOptions(
  {
    flags: '0oprtx',
    valued: 'adEILnPs',
    longFlags: [
      '--null',
      '--open-tty',
      '--interactive',
      '--no-run-if-empty',
      '--verbose',
      '--exit',
    ],
    longValued: [
      '--arg-file',
      '--delimiter',
      '--eof',
      '--replace',
      '--max-lines',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--process-slot-var',
    ],
  },
  (values, rest, name, isCut) => {
    const replace = values.get('-I') ?? values.get('--replace');
    // With -I, input replaces that string inside any word, so words from the first such one are unknown.
    const cut = replace === undefined ? -1 : rest.findIndex((word) => word.includes(replace));
    if (cut === 0) return uncertain('the command xargs runs is built from its input');
    const argv = cut < 0 ? rest : rest.slice(0, cut);
    return runArgv(name, argv, isCut, { isTransparent: true, isArgsUnknown: true });
  },
);

const unwrapSudo = withOptions(
  {
    flags: 'AbEHiKklnPSsVv',
    valued: 'CDgpRrTtUu',
    longFlags: [
      '--askpass', '--background', '--bell', '--set-home', '--login', '--remove-timestamp',
      '--reset-timestamp', '--non-interactive', '--preserve-groups', '--stdin', '--shell',
      '--version', '--validate', '--list', '--help',
    ], // prettier-ignore
    longValued: [
      '--close-from', '--chdir', '--group', '--host', '--prompt', '--chroot', '--role', '--type',
      '--command-timeout', '--other-user', '--user',
    ], // prettier-ignore
    longOptional: ['--preserve-env'],
  },
  (values, rest, name, isCut) => {
    if (
      ['-e', '-l', '-V', '-v', '-K', '--list', '--version', '--validate'].some((o) => values.has(o))
    )
      return NONE;
    const isShell = ['-s', '-i', '--shell', '--login'].some((o) => values.has(o));
    if (isShell && rest.length === 0 && !isCut)
      return uncertain(`${name} starts a shell that reads its input`);
    return runArgv(name, rest, isCut, { isTransparent: false });
  },
);

const unwrapDoas = withOptions({ flags: 'nsL', valued: 'uC' }, (values, rest, name, isCut) => {
  if (values.has('-C') || values.has('-L')) return NONE;
  if (values.has('-s') && rest.length === 0 && !isCut)
    return uncertain(`${name} starts a shell that reads its input`);
  return runArgv(name, rest, isCut, { isTransparent: false });
});

const unwrapChroot = withOptions(
  { flags: '', valued: '', longFlags: ['--skip-chdir'], longValued: ['--userspec', '--groups'] },
  (_values, rest, name, isCut) => {
    if (rest.length === 0) return isCut ? uncertain("chroot's operands are not literal") : NONE;
    if (rest.length === 1 && !isCut) return uncertain('chroot starts a shell that reads its input');
    return runArgv(name, rest.slice(1), isCut, { isTransparent: false });
  },
);

const unwrapChrt = withOptions(
  {
    flags: 'abdefiorRvm',
    valued: 'TPD',
    longFlags: ['--all-tasks', '--batch', '--deadline', '--fifo', '--idle', '--other', '--rr', '--reset-on-fork', '--verbose', '--max'], // prettier-ignore
    longValued: ['--sched-runtime', '--sched-period', '--sched-deadline'],
  },
  (values, rest, name, isCut) => {
    if (values.has('-p') || values.has('-m') || values.has('--max')) return NONE;
    const argv = NUMBER.test(rest[0] ?? '') ? rest.slice(1) : rest;
    return runArgv(name, argv, isCut, { isTransparent: true });
  },
);

const unwrapBusybox: Unwrap = (name, args, isCut) => {
  if (args[0]?.startsWith('-') === true) return NONE;
  return runArgv(name, args, isCut, { isTransparent: true });
};

/** GNU time is transparent unless `-o` makes it write a file. */
const unwrapTime = withOptions(
  {
    flags: 'pvqa',
    valued: 'of',
    longFlags: ['--portability', '--verbose', '--quiet', '--append'],
    longValued: ['--output', '--format'],
  },
  (values, rest, name, isCut) => {
    const writesFile = values.has('-o') || values.has('--output');
    return runArgv(name, rest, isCut, { isTransparent: !writesFile });
  },
);

const unwrapCommand = optionsThenCommand({ flags: 'pvV', valued: '' }, true, 'vV');

/** Every wrapper the check sees through, by command name. Shells and find live in their own files. */
export const WRAPPERS: Readonly<Record<string, Unwrap>> = {
  env: unwrapEnv,
  nice: unwrapNice,
  ionice: optionsThenCommand(
    {
      flags: 'tPpu',
      valued: 'cn',
      longFlags: ['--ignore', '--pid', '--pgid', '--uid'],
      longValued: ['--class', '--classdata'],
    },
    true,
    'pPu',
  ),
  timeout: unwrapTimeout,
  nohup: optionsThenCommand({ flags: '', valued: '' }, true),
  stdbuf: optionsThenCommand(
    { flags: '', valued: 'ioe', longValued: ['--input', '--output', '--error'] },
    true,
  ),
  flock: unwrapFlock,
  xargs: unwrapXargs,
  command: unwrapCommand,
  builtin: optionsThenCommand({ flags: '', valued: '' }, true),
  exec: optionsThenCommand({ flags: 'cl', valued: 'a' }, true),
  time: unwrapTime,
  sudo: unwrapSudo,
  doas: unwrapDoas,
  chroot: unwrapChroot,
  // setsid starts a new session, out of the process group the bash tool kills: it must be allowed itself.
  setsid: optionsThenCommand(
    { flags: 'cfw', valued: '', longFlags: ['--ctty', '--fork', '--wait'] },
    false,
  ),
  taskset: optionsOperandCommand(
    { flags: 'acp', valued: '', longFlags: ['--all-tasks', '--cpu-list', '--pid'] },
    true,
    'p',
  ),
  chrt: unwrapChrt,
  unbuffer: optionsThenCommand({ flags: 'p', valued: '' }, true),
  busybox: unwrapBusybox,
  eatmydata: optionsThenCommand({ flags: '', valued: '' }, true),
  nocache: optionsThenCommand({ flags: '', valued: '' }, true),
};
