import { createRedactor } from '../../safety/redact/index.js';
import { keepAbsolutePathEntries } from '../../shared/absolute-path-entries.js';
import { hardenGitEnvironment } from './git-hardening.js';

/**
 * The variables every child oy starts for the model gets (bash, hooks, MCP servers), when their
 * values pass the checks below: where programs and the home are, who and where the user is, the
 * terminal and locale, the temporary folder, proxies and certificate bundles (a proxy URL with a
 * password fails the value check).
 */
const CORE_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'TZ',
  'TMPDIR',
  'CI',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
];

/** Whole families of the core set: the locale categories. */
const CORE_PREFIXES = ['LC_'];

/**
 * Toolchain variables: where version managers, SDKs and package caches live and which version
 * is selected. Each holds a path, a version or a switch, never a login.
 */
const TOOLCHAIN_VARIABLES = [
  'NVM_DIR',
  'NVM_BIN',
  'NVM_INC',
  'FNM_DIR',
  'FNM_MULTISHELL_PATH',
  'VOLTA_HOME',
  'NODENV_ROOT',
  'NODENV_VERSION',
  'PNPM_HOME',
  'BUN_INSTALL',
  'DENO_INSTALL',
  'DENO_DIR',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'CONDA_EXE',
  'CONDA_PYTHON_EXE',
  'CONDA_SHLVL',
  'POETRY_HOME',
  'PIPX_HOME',
  'PIPX_BIN_DIR',
  'UV_PYTHON_INSTALL_DIR',
  'RBENV_ROOT',
  'RBENV_VERSION',
  'GEM_HOME',
  'GEM_PATH',
  'GOROOT',
  'GOPATH',
  'GOBIN',
  'GOTOOLCHAIN',
  'GOMODCACHE',
  'GOCACHE',
  'GOPROXY',
  'GOPRIVATE',
  'GONOSUMDB',
  'GOFLAGS',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'JAVA_HOME',
  'JDK_HOME',
  'MAVEN_HOME',
  'M2_HOME',
  'GRADLE_HOME',
  'GRADLE_USER_HOME',
  'SDKMAN_DIR',
  'SDKMAN_CANDIDATES_DIR',
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
  'DOTNET_ROOT',
  'ASDF_DIR',
  'ASDF_DATA_DIR',
  'MISE_DATA_DIR',
  'MISE_SHELL',
  'GHCUP_INSTALL_BASE_PREFIX',
  'JULIA_DEPOT_PATH',
  'OPAM_SWITCH_PREFIX',
  'HOMEBREW_PREFIX',
  'HOMEBREW_CELLAR',
  'HOMEBREW_REPOSITORY',
];

const PASSED_NAMES = new Set([...CORE_VARIABLES, ...TOOLCHAIN_VARIABLES]);

/** A URL with a password in it (`postgres://user:pass@host`, `redis://:pass@host`). */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

// The redactor keeps no state that matters here: only whether it found anything is read.
const redactor = createRedactor();

export interface ChildEnvironmentOptions {
  /** `agent.allowEnv` from the user config: passed as they are, the user's own choice. */
  allowedNames: readonly string[];
  /** One MCP server's own `env` entries, for that server only. */
  serverEnv?: Readonly<Record<string, string>>;
  /** Extra git settings inside the sandbox (the user's identity; sandbox-git-settings.ts). */
  gitSettings?: readonly string[];
}

/**
 * The one place that decides the environment of every process oy starts for the model: bash
 * commands, hooks and MCP servers. An allow-list: the core set and toolchain variables above,
 * each dropped if its value holds a credential (a URL with a password, or anything the redactor
 * recognises); the names the user lists in `agent.allowEnv`; a server's own `env`. Nothing else
 * passes, whatever it is called. PATH keeps only absolute entries (a relative one would find the
 * workspace's programs), and git is pinned so it runs nothing a repository configures.
 */
export function buildChildEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  options: ChildEnvironmentOptions,
): Record<string, string> {
  const allowed = new Set(options.allowedNames);
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (allowed.has(name)) result[name] = value;
    else if (isPassedName(name) && !hasCredentialValue(value)) result[name] = value;
  }
  if (result.PATH !== undefined) result.PATH = keepAbsolutePathEntries(result.PATH);
  Object.assign(result, options.serverEnv ?? {});
  return hardenGitEnvironment(result, options.gitSettings ?? []);
}

/** Whether a variable of this name may pass at all, before its value is looked at. */
export function isPassedName(name: string): boolean {
  return PASSED_NAMES.has(name) || CORE_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** Whether a value holds a credential: a URL with a password, or anything the redactor recognises. */
export function hasCredentialValue(value: string): boolean {
  if (URL_WITH_PASSWORD.test(value)) return true;
  return redactor.redact(value).redactions.length > 0;
}
