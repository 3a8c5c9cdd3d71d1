/** Options a tool takes before its subcommand: which take a separate value and which do not. */
interface GlobalOptions {
  valued: readonly string[];
  flags: readonly string[];
}

// Known tools: a known option is read exactly. Any other option may or may not take a value, so both are tried.
const TOOLS: Readonly<Record<string, GlobalOptions>> = {
  git: {
    valued: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--list-cmds', '--attr-source'], // prettier-ignore
    flags: ['-p', '--paginate', '-P', '--no-pager', '--bare', '--no-replace-objects', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks', '--no-advice', '--no-lazy-fetch', '--exec-path', '--html-path', '--man-path', '--info-path'], // prettier-ignore
  },
  npm: {
    valued: ['--prefix', '-w', '--workspace', '--userconfig', '--globalconfig', '--cache', '--registry', '--loglevel', '-C'], // prettier-ignore
    flags: ['-g', '--global', '-s', '--silent', '-q', '--quiet', '-d', '--verbose', '--workspaces', '-ws', '--include-workspace-root', '-y', '--yes', '--offline'], // prettier-ignore
  },
  pnpm: {
    valued: ['-C', '--dir', '-F', '--filter', '--reporter', '--loglevel'],
    flags: ['-w', '--workspace-root', '-r', '--recursive', '-s', '--silent', '--offline'],
  },
  yarn: {
    valued: ['--cwd', '--mutex', '--cache-folder', '--modules-folder', '--global-folder'],
    flags: ['-s', '--silent', '--offline', '--verbose', '--frozen-lockfile'],
  },
  docker: {
    valued: ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey'], // prettier-ignore
    flags: ['-D', '--debug', '--tls', '--tlsverify'],
  },
  podman: {
    valued: ['--url', '-c', '--connection', '--root', '--runroot', '--log-level', '--storage-driver'], // prettier-ignore
    flags: ['--remote', '-r', '--debug'],
  },
  kubectl: {
    valued: ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server', '--token', '--as', '--as-group', '--as-uid', '--cache-dir', '--certificate-authority', '--client-certificate', '--client-key', '--request-timeout', '-v', '--tls-server-name'], // prettier-ignore
    flags: ['--insecure-skip-tls-verify', '--match-server-version', '--warnings-as-errors'],
  },
  make: {
    valued: ['-C', '--directory', '-f', '--file', '--makefile', '-I', '--include-dir', '-o', '--old-file', '-W', '--what-if', '--new-file', '--assume-new', '-l', '--load-average'], // prettier-ignore
    flags: ['-B', '--always-make', '-e', '-i', '-k', '-n', '--dry-run', '-q', '-r', '-R', '-s', '--silent', '-S', '-t', '-w', '--no-print-directory', '--trace'], // prettier-ignore
  },
  cargo: {
    valued: ['-C', '--config', '-Z', '--color', '--manifest-path'],
    flags: ['-v', '--verbose', '-q', '--quiet', '--frozen', '--locked', '--offline'],
  },
};

/** Most option-word forms considered before a subcommand; past that, nobody writes a command by hand. */
const MAX_OPTION_WORDS = 32;

/**
 * The forms of a command with its leading options left out (`git -C . push` → `git push`), for deny
 * and ask rules. An option the check does not know for this tool yields both readings (with and without
 * a value), so an unknown option cannot hide the subcommand. argv[0] is the bare command name; a form
 * of the name alone means only options were literal, which a cut command's rule matching treats as unknown.
 */
export function withoutGlobalOptions(argv: readonly string[]): string[][] {
  const [name = '', ...rest] = argv;
  const known = TOOLS[name];
  const reachable = new Set([0]);
  const starts: number[] = [];
  for (let index = 0; index < Math.min(rest.length, MAX_OPTION_WORDS); index += 1) {
    if (!reachable.has(index)) continue;
    const word = rest[index] ?? '';
    const isOption = (word.startsWith('-') && word !== '-') || (name === 'cargo' && word.startsWith('+')); // prettier-ignore
    if (!isOption) {
      if (index > 0) starts.push(index);
      continue;
    }
    if (word === '--') {
      starts.push(index + 1);
      continue;
    }
    const isAttached = word.includes('=') || word.startsWith('+');
    const isValued = !isAttached && known?.valued.includes(word) === true;
    const isFlag = isAttached || known?.flags.includes(word) === true;
    if (!isValued) reachable.add(index + 1);
    if (!isFlag) reachable.add(index + 2);
  }
  // Options up to the last word: the subcommand is among the words that follow, if any (`git -C "$(pwd)" push`).
  if ([...reachable].some((index) => index >= rest.length)) starts.push(rest.length);
  return [...new Set(starts)].map((start) => [name, ...rest.slice(start)]);
}

/** Why a tool's own options make the command unreadable: a git alias set on the command line. */
export function findUncertainOption(argv: readonly string[]): string | undefined {
  const [name, ...rest] = argv;
  if (name !== 'git') return undefined;
  // Every word is looked at: telling a value from the subcommand would need git's own option table.
  for (const [index, word] of rest.entries()) {
    if (!word.startsWith('-c') && !word.startsWith('--config-env')) continue;
    const value = word === '-c' ? (rest[index + 1] ?? '') : word.replace(/^-c/u, '');
    if (word.startsWith('--config-env') || namesProgram(value))
      return 'git is given an alias, an included config or a program to run on the command line, which can run anything';
  }
  return undefined;
}

// Config that makes git run a program (`core.fsmonitor`, `diff.external`, `filter.x.clean`, a `!` value).
const PROGRAM_SECTIONS = /^(?:alias|include|includeif|pager|hook|protocol|credential|filter|submodule)$/u; // prettier-ignore
const PROGRAM_KEYS = /(?:command|cmd|program|helper|editor|pager|driver|external|textconv|fsmonitor|path|askpass|proxy|pack|hook|browser|filter|dir|server)$/u; // prettier-ignore

const HARMLESS_PAGERS = new Set(['', 'cat', 'less', 'more']);

/** Whether a `-c key=value` word names a program for git to run, or config to read from elsewhere. */
export function namesProgram(setting: string): boolean {
  const [key = '', ...valueParts] = setting.split('=');
  const parts = key.toLowerCase().split('.');
  const value = valueParts.join('=').trim();
  // `core.pager=cat` is how people turn paging off; a pager that only shows text runs nothing else.
  const isPager = parts[0] === 'pager' || parts.at(-1) === 'pager';
  if (isPager && HARMLESS_PAGERS.has(value)) return false;
  return PROGRAM_SECTIONS.test(parts[0] ?? '') || PROGRAM_KEYS.test(parts.at(-1) ?? '') || value.startsWith('!'); // prettier-ignore
}
