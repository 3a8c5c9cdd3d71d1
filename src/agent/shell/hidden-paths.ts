import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { resolveOyPaths } from '../../config/config-paths.js';
import { HOME_SECRET_FILES } from '../../safety/secret-files.js';
import { expandHomePlace, expandToolchainSecrets, homeOf, loginHome } from './home-places.js';

/**
 * Shell start-up and history files: rc files export keys (`export OPENAI_API_KEY=…`) and
 * histories keep tokens typed on command lines. A sandboxed `bash -c` reads none of them.
 */
const SHELL_FILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.kshrc',
  '.bash_history',
  '.zsh_history',
  '.sh_history',
  '.history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.sqlite_history',
  '.rediscli_history',
  '.irb_history',
  '.lesshst',
  '.viminfo',
  '.wget-hsts',
];

/**
 * Folders and files under HOME where tools keep keys, tokens, cookies and logins, beyond the
 * secret-bearing files shared with the audit (`HOME_SECRET_FILES`). A `.config/`, `.cache/` or
 * `.local/share/` entry is also looked for under the matching XDG folder.
 */
const HOME_CREDENTIAL_PLACES = [
  '.ssh',
  '.gnupg',
  '.password-store',
  '.local/share/keyrings',
  '.pki',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.minikube',
  '.oci',
  '.docker',
  '.terraform.d',
  '.config/gh',
  '.config/hub',
  '.config/glab-cli',
  '.config/op',
  '.1password',
  '.config/rclone',
  '.config/doctl',
  '.config/heroku',
  '.config/netlify',
  '.config/configstore',
  '.config/sops',
  '.config/github-copilot',
  '.wrangler',
  '.fly',
  '.supabase',
  '.pulumi',
  '.cloudflared',
  '.config/hcloud',
  '.config/age',
  '.config/containers/auth.json',
  '.terraformrc',
  // The token files only: the model cache beside them is large and holds no secret.
  '.cache/huggingface/token',
  '.cache/huggingface/stored_tokens',
  '.config/fish',
  '.local/share/fish',
  '.m2/settings.xml',
  '.m2/settings-security.xml',
  '.gradle/gradle.properties',
  '.yarnrc',
  '.yarnrc.yml',
  '.config/pip/pip.conf',
  '.config/pypoetry/auth.toml',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.thunderbird',
  '.claude',
  '.claude.json',
  '.codex',
  '.gemini',
];

/** A path the sandbox covers: directories with an empty tmpfs, files with /dev/null. */
export interface HiddenPath {
  path: string;
  isDirectory: boolean;
}

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Every place the sandbox hides under this HOME, existing or not (doctor counts them; tests plant
 * each). Since the home is an empty tmpfs with only toolchain places shown (home-places.ts), this
 * list is the second line of defence: it covers what a place the user shows (`agent.homePaths`),
 * a workspace in HOME, or an XDG or Hugging Face folder elsewhere would otherwise let through.
 * Shared credential files, shell rc and history files, tool credential folders, and oy's own
 * config, state and cache (the user config may hold keys).
 */
export function listHiddenCandidates(env: Environment): string[] {
  const home = homeOf(env);
  const oyPaths = resolveOyPaths(env);
  const candidates = new Set<string>();
  for (const relative of [...HOME_SECRET_FILES, ...SHELL_FILES, ...HOME_CREDENTIAL_PLACES])
    for (const candidate of expandHomePlace(relative, env)) candidates.add(candidate);
  if (env.HF_HOME) {
    for (const name of ['token', 'stored_tokens']) candidates.add(path.join(env.HF_HOME, name));
  }
  if (env.HF_TOKEN_PATH) candidates.add(env.HF_TOKEN_PATH);
  const configHome = env.XDG_CONFIG_HOME || path.join(home, '.config');
  for (const own of [path.join(configHome, 'oy'), oyPaths.userConfigFile]) candidates.add(own);
  candidates.add(oyPaths.stateDir);
  candidates.add(oyPaths.cacheDir);
  return [...candidates];
}

/**
 * The hidden places that exist for this HOME, by their real path so a symlinked `~/.ssh` is
 * hidden where it lives, with the logins inside toolchain installations (TOOLCHAIN_SECRET_FILES).
 * A dangling symlink or a vanished path is skipped, never an error.
 */
export function findHiddenPaths(env: Environment): HiddenPath[] {
  const found = new Map<string, HiddenPath>();
  const login = loginHome();
  const homes = [homeOf(env), ...(login === undefined ? [] : [login])];
  const candidates = [
    ...listHiddenCandidates(env),
    // The login's home, emptied when HOME points elsewhere, shows its toolchains: the same list holds there.
    ...(login === undefined || login === homeOf(env) ? [] : listHiddenCandidates({ HOME: login })),
    ...homes.flatMap((home) => expandToolchainSecrets(home)),
  ];
  for (const candidate of candidates) {
    // A relative HOME or XDG value names no fixed place; bwrap needs absolute targets.
    if (!path.isAbsolute(candidate) || !existsSync(candidate)) continue;
    try {
      const real = realpathSync(candidate);
      found.set(real, { path: real, isDirectory: statSync(real).isDirectory() });
    } catch {
      // Vanished or unreadable between the two calls: nothing to hide.
    }
  }
  return [...found.values()];
}
