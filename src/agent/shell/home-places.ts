import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInsideRoot } from '../../safety/paths/path-input.js';

/**
 * Places under HOME a sandboxed command may read: language managers with their installed
 * toolchains, and package caches. Each names the folder that holds programs or downloaded
 * packages, never its parent, where the tool keeps its login (`.m2/repository`, not `.m2` with
 * `settings.xml`; `.cargo/bin`, not `.cargo` with `credentials.toml`; no rc file such as `.npmrc`,
 * `.yarnrc.yml`, `.condarc`, `pip.conf`, `.bunfig.toml`, composer's `auth.json`). A `.config/`,
 * `.cache/` or `.local/share/` entry is also looked for under the matching XDG folder.
 */
export const TOOLCHAIN_PLACES: readonly string[] = [
  // Version managers: the managers and the toolchains they installed.
  '.nvm',
  '.fnm',
  '.local/share/fnm',
  '.volta',
  '.nodenv',
  '.pyenv',
  '.rbenv',
  '.goenv',
  '.jenv',
  '.plenv',
  '.asdf',
  '.tool-versions',
  '.local/share/mise',
  '.sdkman',
  '.rustup',
  '.ghcup',
  '.juliaup',
  '.linuxbrew',
  // Installed programs and user-level packages.
  '.local/bin',
  '.local/lib',
  '.local/pipx',
  '.local/share/pipx',
  '.local/share/uv',
  '.local/share/pnpm',
  '.local/share/virtualenvs',
  '.virtualenvs',
  '.cargo/bin',
  '.cargo/registry',
  '.cargo/git',
  'go/bin',
  'go/pkg',
  'sdk',
  '.bun/bin',
  '.bun/install/cache',
  '.deno/bin',
  '.dotnet',
  '.gem/ruby',
  '.local/share/gem',
  '.opam',
  '.cabal/bin',
  '.cabal/packages',
  '.stack/programs',
  '.julia/packages',
  '.julia/artifacts',
  '.julia/compiled',
  '.julia/registries',
  '.config/composer/vendor',
  '.composer/vendor',
  'miniconda3',
  'miniforge3',
  'anaconda3',
  'mambaforge',
  '.conda/envs',
  '.conda/pkgs',
  // Package and build caches: downloaded packages, no logins.
  '.npm/_cacache',
  '.npm/_npx',
  '.cache/yarn',
  '.yarn/berry/cache',
  '.cache/pnpm',
  '.cache/pip',
  '.cache/uv',
  '.cache/pypoetry',
  '.cache/go-build',
  '.cache/deno',
  '.cache/node-gyp',
  '.node-gyp',
  '.cache/ms-playwright',
  '.cache/Cypress',
  '.cache/puppeteer',
  '.cache/composer',
  '.cache/coursier',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper',
  '.ivy2/cache',
  '.sbt/boot',
  '.nuget/packages',
];

/**
 * Files inside toolchain places that can hold logins, hidden again (`*` is one folder name): npm's
 * global config beside each Node a version manager installed (`npm config set --global`), conda's
 * and pip's configs inside their installations.
 */
export const TOOLCHAIN_SECRET_FILES: readonly string[] = [
  '.nvm/versions/node/*/etc/npmrc',
  '.volta/tools/image/node/*/etc/npmrc',
  '.local/share/fnm/node-versions/*/installation/etc/npmrc',
  '.fnm/node-versions/*/installation/etc/npmrc',
  '.nodenv/versions/*/etc/npmrc',
  '.asdf/installs/nodejs/*/etc/npmrc',
  '.local/share/mise/installs/node/*/etc/npmrc',
  '.pyenv/versions/*/pip.conf',
  ...['miniconda3', 'miniforge3', 'anaconda3', 'mambaforge'].flatMap((root) => [
    `${root}/.condarc`,
    `${root}/condarc`,
    `${root}/pip.conf`,
    `${root}/envs/*/.condarc`,
    `${root}/envs/*/pip.conf`,
  ]),
];

/** The user's own extra places (`agent.homePaths`): `~/`-relative, as written in the config. */
export type HomePathSetting = string;

type Environment = Readonly<Record<string, string | undefined>>;

/** The folders the sandbox replaces with an empty, throw-away tmpfs, and what it shows in them. */
export interface HomeLayout {
  /** Real paths that become an empty writable tmpfs: HOME, the login's home, XDG folders outside HOME. */
  homes: string[];
  /** Real paths bound read-only into those homes: toolchain places and the user's own that exist. */
  visible: string[];
}

/** HOME as commands see it (the variable, else the login's home). */
export function homeOf(env: Environment): string {
  return env.HOME || os.homedir();
}

/**
 * The absolute candidates for one `~/`-relative place: under HOME, and for `.config/`, `.cache/`
 * and `.local/share/` entries also under the XDG folder the environment names.
 */
export function expandHomePlace(relative: string, env: Environment): string[] {
  const home = homeOf(env);
  const candidates = [path.join(home, relative)];
  const xdg: Array<[string, string | undefined]> = [
    ['.config/', env.XDG_CONFIG_HOME],
    ['.cache/', env.XDG_CACHE_HOME],
    ['.local/share/', env.XDG_DATA_HOME],
    ['.local/state/', env.XDG_STATE_HOME],
  ];
  for (const [prefix, base] of xdg) {
    if (base && path.isAbsolute(base) && relative.startsWith(prefix))
      candidates.push(path.join(base, relative.slice(prefix.length)));
  }
  return candidates;
}

/**
 * What the sandbox makes of the home folders: each one (HOME, the login's home from the password
 * database when it differs, and XDG folders outside HOME) becomes an empty tmpfs, and only the
 * toolchain places, absolute PATH entries under a home, and the user's `agent.homePaths` that
 * exist are bound back, read-only. A "home" at or above a system folder (`/`, `/usr`) is left
 * alone: hiding it would hide the system.
 */
export function layOutHome(env: Environment, userPlaces: readonly HomePathSetting[]): HomeLayout {
  const homes = findHomeRoots(env);
  const wanted = [...TOOLCHAIN_PLACES, ...userPlaces.map(stripTilde)].flatMap((relative) =>
    expandHomePlace(relative, env),
  );
  // The login's home is emptied too when HOME points elsewhere: its toolchains stay usable.
  const login = loginHome();
  if (login !== undefined && login !== homeOf(env))
    wanted.push(...TOOLCHAIN_PLACES.map((relative) => path.join(login, relative)));
  // What the user already runs from PATH is a toolchain place, unless it is a home itself.
  for (const entry of (env.PATH ?? '').split(path.delimiter)) {
    if (path.isAbsolute(entry)) wanted.push(entry);
  }
  const visible = new Set<string>();
  for (const candidate of wanted) {
    const real = realOrUndefined(candidate);
    if (real === undefined || homes.includes(real)) continue;
    if (homes.some((home) => isInsideRoot(home, real))) visible.add(real);
  }
  // A place inside another shown place is shown with it already.
  const places = [...visible].sort();
  return {
    homes,
    visible: places.filter(
      (place) => !places.some((other) => other !== place && isInsideRoot(other, place)),
    ),
  };
}

/** The real home folders to empty: existing directories, never `/` or one holding the system. */
export function findHomeRoots(env: Environment): string[] {
  const candidates = [homeOf(env), loginHome()];
  for (const name of ['XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME']) {
    const value = env[name];
    if (value && path.isAbsolute(value)) candidates.push(value);
  }
  const roots: string[] = [];
  for (const candidate of candidates) {
    const real = candidate === undefined ? undefined : realOrUndefined(candidate);
    if (real === undefined || !isDirectory(real) || isSystemFolder(real)) continue;
    roots.push(real);
  }
  // An XDG folder inside HOME is emptied with it; keep only the outermost folders.
  return roots.filter(
    (root, index) =>
      roots.indexOf(root) === index &&
      !roots.some((other) => other !== root && isInsideRoot(other, root)),
  );
}

/** Folders the system runs from: a "home" at or above one of them is not emptied. */
const SYSTEM_FOLDERS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc', '/nix', '/opt'];

function isSystemFolder(real: string): boolean {
  return SYSTEM_FOLDERS.some((dir) => isInsideRoot(real, dir) || isInsideRoot(dir, real));
}

/** Each existing file a `*` pattern of TOOLCHAIN_SECRET_FILES names under `home`. */
export function expandToolchainSecrets(home: string): string[] {
  const found: string[] = [];
  for (const pattern of TOOLCHAIN_SECRET_FILES) {
    let matches = [home];
    for (const part of pattern.split('/')) {
      matches = matches.flatMap((dir) =>
        part === '*' ? listFolders(dir) : [path.join(dir, part)],
      );
    }
    found.push(...matches.filter((match) => existsSync(match)));
  }
  return found;
}

function listFolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(dir, entry.name));
  } catch {
    return [];
  }
}

/** `~/x` or `x` as written in `agent.homePaths`, relative to HOME. */
function stripTilde(place: string): string {
  return place.replace(/^~\/?/, '');
}

/** The home folder the password database gives this user (HOME may point elsewhere). */
export function loginHome(): string | undefined {
  try {
    return os.userInfo().homedir || undefined;
  } catch {
    // No password entry for this uid (some containers): HOME is all there is.
    return undefined;
  }
}

function realOrUndefined(candidate: string): string | undefined {
  if (!path.isAbsolute(candidate) || !existsSync(candidate)) return undefined;
  try {
    return realpathSync(candidate);
  } catch {
    return undefined;
  }
}

function isDirectory(target: string): boolean {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
}
