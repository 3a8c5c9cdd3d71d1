/**
 * Settings that stop git from running what a repository configures. The environment's config
 * entries are read after every config file, so these win over `.git/config`. Attribute-driven
 * filters and diff drivers, `diff.external` and per-remote upload-pack commands cannot be pinned
 * this way; the sandbox contains those.
 */
const PINNED_GIT_CONFIG: readonly (readonly [string, string])[] = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['protocol.ext.allow', 'never'],
  ['core.sshCommand', 'ssh'],
  // The empty value clears the helper list, so no configured helper runs or hands out credentials.
  ['credential.helper', ''],
  ['gpg.program', 'gpg'],
  ['gpg.ssh.program', 'ssh-keygen'],
  ['gpg.x509.program', 'gpgsm'],
];

/** Variables that override editor, pager and askpass settings from any config file. */
const PINNED_GIT_VARIABLES: Readonly<Record<string, string>> = {
  GIT_TERMINAL_PROMPT: '0',
  // Empty: git skips core.askPass and asks nobody (the terminal prompt is off).
  GIT_ASKPASS: '',
  GIT_EDITOR: 'true',
  GIT_SEQUENCE_EDITOR: 'true',
  GIT_PAGER: 'cat',
};

/**
 * `env` plus GIT_CONFIG_COUNT/KEY/VALUE entries and variables so that git run by a command cannot
 * execute repository-supplied code (hooks, fsmonitor, ext:: transport, ssh command, credential
 * helpers, signing programs, editor, pager). Entries already in `env` are kept before ours, then
 * `settings` (`key=value`, such as the user's identity inside the sandbox), then the pins, which win.
 */
export function hardenGitEnvironment(
  env: Readonly<Record<string, string>>,
  settings: readonly string[] = [],
): Record<string, string> {
  const result: Record<string, string> = { ...env, ...PINNED_GIT_VARIABLES };
  const existing = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10);
  const start = Number.isInteger(existing) && existing > 0 ? existing : 0;
  const entries: Array<readonly [string, string]> = [
    ...settings.map((setting) => {
      const equals = setting.indexOf('=');
      return [setting.slice(0, equals), setting.slice(equals + 1)] as const;
    }),
    ...PINNED_GIT_CONFIG,
  ];
  entries.forEach(([key, value], index) => {
    result[`GIT_CONFIG_KEY_${start + index}`] = key;
    result[`GIT_CONFIG_VALUE_${start + index}`] = value;
  });
  result.GIT_CONFIG_COUNT = String(start + entries.length);
  return result;
}
