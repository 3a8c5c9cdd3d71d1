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
]);

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
]);

/** A URL with a user and password in it (`postgres://user:pass@host`), in any variable. */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

/**
 * The environment shell commands get: `env` without provider keys and anything that looks like a
 * credential (by name, case-insensitively, or a URL with a password as its value), without GIT_*
 * and OY_* variables. A name listed exactly in `allowedNames` (the user's config) is kept anyway.
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
  if (upper.split(/[^A-Z0-9]+/).some((word) => CREDENTIAL_WORDS.has(word))) return true;
  if (CREDENTIAL_FRAGMENTS.some((fragment) => upper.includes(fragment))) return true;
  return URL_WITH_PASSWORD.test(value);
}
