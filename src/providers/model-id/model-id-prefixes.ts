import type { ProviderName } from '../types.js';

/** The separator between provider and model in an id (`anthropic::claude-sonnet-4-5`). */
export const PREFIX_SEPARATOR = '::';

/** Providers named by a fixed prefix; `local-<port>::` is matched on its own. */
export const FIXED_PREFIXES: ReadonlyMap<string, ProviderName> = new Map([
  ['anthropic', 'anthropic'],
  ['bedrock', 'bedrock'],
  ['openai', 'openai'],
  ['ollama', 'ollama'],
  ['openrouter', 'openrouter'],
]);

/** `local-<port>`: any OpenAI-compatible server on this machine. */
export const LOCAL_PREFIX_PATTERN = /^local-(\d+)$/;

/** Every prefix as a user types it, for suggestions. */
export const PREFIX_EXAMPLES = [
  'anthropic::',
  'bedrock::',
  'openai::',
  'local-<port>::',
  'ollama::',
  'openrouter::',
] as const;

/** Bare ids oy recognises without a prefix (README.md "Models and providers"): Claude and OpenAI's own model names. */
export const BARE_PATTERNS: ReadonlyArray<{ pattern: RegExp; provider: ProviderName }> = [
  { pattern: /^claude-./, provider: 'anthropic' },
  { pattern: /^gpt-./, provider: 'openai' },
  // o1, o3 and o4 with optional suffixes (o3-mini, o1-preview, o4-mini-2025-04-16).
  { pattern: /^o[134](?:-[\w.-]+)?$/, provider: 'openai' },
];

export const HIGHEST_PORT = 65_535;

/** Bedrock inference-profile prefixes (`us.anthropic.claude-…`, `global.…`); an ARN names a profile too. */
export const BEDROCK_PROFILE_PREFIX = /^(?:us|us-gov|eu|apac|au|jp|ca|global)\./;
