/**
 * Variables every git process oy starts gets, last, so no caller can drop them. System and global
 * config are not read (oy reads the global excludes file itself); editor, pager and askpass are
 * disabled; nothing is written back opportunistically.
 */
export const HARDENED_GIT_VARIABLES: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_ATTR_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  // Empty: git skips core.askPass and SSH_ASKPASS and asks nobody.
  GIT_ASKPASS: '',
  // ":" is git's own "no editor" value; nothing is looked up on PATH.
  GIT_EDITOR: ':',
  GIT_SEQUENCE_EDITOR: ':',
  GIT_PAGER: 'cat',
  // No opportunistic index refresh written back, so reading never modifies the repository.
  GIT_OPTIONAL_LOCKS: '0',
  GIT_NO_REPLACE_OBJECTS: '1',
  // An allow-list of no transport, which overrides every protocol.<name>.allow in any config: a
  // partial clone's lazy fetch (cat-file of a missing blob) cannot start ssh, an upload-pack
  // command or a remote helper the repository names. oy never fetches.
  GIT_ALLOW_PROTOCOL: '',
  // git 2.45 and later: a missing object is reported missing, with no fetch attempted at all.
  GIT_NO_LAZY_FETCH: '1',
  // No `info/grafts` file can cut or rewrite the history git shows (replace refs are off above).
  GIT_GRAFT_FILE: '/dev/null',
};

/**
 * `-c` settings read after every config file, so they win over the repository's own config and
 * anything it includes (`include.path`, `includeIf`). Each names a program git could start or a
 * way to reach one: implicit bare repositories (a committed `pkg/config`), fsmonitor, hooks,
 * transports (ext::, ssh), credential helpers, pager and the global attributes file. Filters,
 * textconv and external diffs cannot be switched off this way; oy only runs commands that use
 * none of them.
 */
export const HARDENED_GIT_CONFIG: readonly string[] = [
  'safe.bareRepository=explicit',
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.attributesFile=/dev/null',
  'core.untrackedCache=false',
  'core.pager=cat',
  'core.editor=:',
  'core.askPass=',
  'core.sshCommand=false',
  'credential.helper=',
  'protocol.allow=never',
  'protocol.ext.allow=never',
  'submodule.recurse=false',
  // Said on every command once a graft file is named, even /dev/null.
  'advice.graftFileDeprecated=false',
];

/** The argument list: hardening settings, the caller's extra settings, then the command. */
export function buildHardenedGitArgs(
  args: readonly string[],
  extraConfig: readonly string[] = [],
): string[] {
  const config = [...HARDENED_GIT_CONFIG, ...extraConfig].flatMap((setting) => ['-c', setting]);
  return ['--no-pager', '--no-replace-objects', ...config, ...args];
}
