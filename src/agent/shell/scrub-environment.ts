import { createRedactor } from '../../safety/redact/index.js';

/** Name words that mark a credential: `GITHUB_TOKEN`, `DB_PASSWORD`, `SENTRY_DSN`, `SSH_AUTH_SOCK`. */
const CREDENTIAL_WORDS = new Set([
  'KEY',
  'KEYS',
  'APIKEY',
  'TOKEN',
  'TOKENS',
  'SECRET',
  'SECRETS',
  'PASS',
  'PASSWD',
  'PASSWORD',
  'PASSPHRASE',
  'CREDENTIAL',
  'CREDENTIALS',
  'CREDS',
  'AUTH',
  'COOKIE',
  'DSN',
  'PAT',
  'WEBHOOK',
  'AUTHKEY',
  'JWT',
  'BEARER',
]);

/**
 * Last words that mark a credential only at the end: `FASTLANE_SESSION`, `BW_SESSION`,
 * `SONAR_LOGIN` are tokens, while `SESSION_MANAGER`, `XDG_SESSION_TYPE` and `LOGIN_SHELL`-style
 * names (the word elsewhere) describe the desktop and stay.
 */
const CREDENTIAL_LAST_WORDS = new Set(['SESSION', 'LOGIN']);

/** Fragments that mark a credential inside a longer word: `DBPASSWORD`, `MYSECRET`, `XAPIKEY`. */
const CREDENTIAL_FRAGMENTS = [
  'PASSWORD',
  'PASSWD',
  'SECRET',
  'CREDENTIAL',
  'APIKEY',
  'API_KEY',
  'AUTHTOKEN',
  'ACCESSTOKEN',
];

/**
 * Prefixes of providers and clouds whose variables are keys or say where keys are; GIT_ because it
 * can point git at another repository or config; OY_ because oy's own settings are not the
 * command's business; ACTIONS_ for GitHub Actions' runtime and OIDC tokens.
 */
const CREDENTIAL_PREFIXES = [
  'ANTHROPIC_',
  'OPENAI_',
  'OPENROUTER_',
  'AWS_',
  'AZURE_',
  'ARM_',
  'GOOGLE_',
  'GCLOUD_',
  'CLOUDSDK_',
  'VERTEX_',
  'GEMINI_',
  'BEDROCK_',
  'MISTRAL_',
  'GROQ_',
  'COHERE_',
  'DEEPSEEK_',
  'XAI_',
  'ACTIONS_',
  'OP_SESSION_',
  'VAULT_',
  'CI_JOB_JWT',
  'GIT_',
  'OY_',
];

/** Whole names that carry or unlock credentials without saying so. */
const CREDENTIAL_NAMES = new Set([
  'GH_TOKEN',
  'GITHUB_TOKEN',
  'NPM_TOKEN',
  'LOCAL_API_KEY',
  'DOCKER_AUTH_CONFIG',
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'BW_SESSION',
  'KUBECONFIG',
  'MYSQL_PWD',
  'CI_JOB_TOKEN',
  // Where credentials are, or a daemon that hands out root: the password files, docker and podman, Kerberos, X.
  'NETRC',
  'PGPASSFILE',
  'DOCKER_HOST',
  'DOCKER_CONFIG',
  'DOCKER_CERT_PATH',
  'CONTAINER_HOST',
  'KRB5CCNAME',
  'XAUTHORITY',
]);

/**
 * Bundler reads per-host credentials from `BUNDLE_<HOST>` (`BUNDLE_GEMS__EXAMPLE__COM=user:pass`),
 * so every BUNDLE_ name goes except Bundler's own settings, which hold paths and flags.
 */
const BUNDLER_SETTINGS = new Set([
  'APP_CONFIG',
  'BIN',
  'CACHE_ALL',
  'CACHE_PATH',
  'CLEAN',
  'DEPLOYMENT',
  'DISABLE_SHARED_GEMS',
  'FORCE_RUBY_PLATFORM',
  'FROZEN',
  'GEMFILE',
  'JOBS',
  'ONLY',
  'PATH',
  'RETRY',
  'SILENCE_ROOT_WARNING',
  'USER_CACHE',
  'USER_CONFIG',
  'USER_HOME',
  'WITH',
  'WITHOUT',
]);
const BUNDLER_OPTION_PREFIXES = ['BUILD__', 'LOCAL__'];

/** A URL with a password in it (`postgres://user:pass@host`, `redis://:pass@host`), in any variable. */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

// The redactor keeps no state that matters here: only whether it found anything is read.
const redactor = createRedactor();

/**
 * The environment every process oy starts for the model gets: `env` without provider keys and
 * anything that looks like a credential (by name, case-insensitively; or by value: a URL with a
 * password, or anything the redactor recognises), without GIT_* and OY_* variables. A name
 * listed exactly in `allowedNames` (the user's `agent.allowEnv`) is kept anyway.
 */
export function scrubEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  allowedNames: readonly string[],
): Record<string, string> {
  const allowed = new Set(allowedNames);
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (allowed.has(name) || !isCredentialLike(name, value)) result[name] = value;
  }
  return result;
}

/** Whether a variable looks like it holds or points at a credential. */
export function isCredentialLike(name: string, value: string): boolean {
  const upper = name.toUpperCase();
  if (CREDENTIAL_NAMES.has(upper)) return true;
  if (CREDENTIAL_PREFIXES.some((prefix) => upper.startsWith(prefix))) return true;
  if (isBundlerCredential(upper)) return true;
  const words = upper.split(/[^A-Z0-9]+/).filter((word) => word !== '');
  if (words.some((word) => CREDENTIAL_WORDS.has(word))) return true;
  if (CREDENTIAL_LAST_WORDS.has(words.at(-1) ?? '')) return true;
  // `DB_PWD` is a password; `PWD` alone is the working folder.
  if (words.length > 1 && words.at(-1) === 'PWD') return true;
  if (CREDENTIAL_FRAGMENTS.some((fragment) => upper.includes(fragment))) return true;
  if (URL_WITH_PASSWORD.test(value)) return true;
  return redactor.redact(value).redactions.length > 0;
}

/** Whether a BUNDLE_ name is a per-host credential rather than one of Bundler's settings. */
function isBundlerCredential(upper: string): boolean {
  if (!upper.startsWith('BUNDLE_')) return false;
  const setting = upper.slice('BUNDLE_'.length);
  if (BUNDLER_SETTINGS.has(setting)) return false;
  return !BUNDLER_OPTION_PREFIXES.some((prefix) => setting.startsWith(prefix));
}
