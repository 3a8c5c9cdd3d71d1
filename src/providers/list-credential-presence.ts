import { existsSync } from 'node:fs';
import path from 'node:path';
import { readVariable, type ProviderEnvironment } from './provider-environment.js';
import type { ProviderName } from './types.js';

/** What oy can see of one provider's credentials: the names of what is set, never a value. */
export interface CredentialPresence {
  provider: ProviderName;
  /** Whether a call could authenticate as far as oy can tell without running anything. */
  isPresent: boolean;
  /** Variable names (and, for Bedrock, AWS file paths) that are set or exist. */
  found: string[];
  /** What would be needed, for the doctor's advice. */
  needs: string;
}

export interface CredentialPresenceOptions {
  /** Checks a file's existence only; injected so tests need no real ~/.aws. */
  fileExists?: (filePath: string) => boolean;
}

/** AWS variables that can supply credentials to the SDK's default chain. */
const AWS_CREDENTIAL_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_BEARER_TOKEN_BEDROCK',
] as const;

/**
 * Which providers have credentials present, by variable name only. Never launches a program
 * (no `aws`) and never reads a credentials file: for AWS it only checks that the files exist.
 */
export function listCredentialPresence(
  env: ProviderEnvironment,
  options: CredentialPresenceOptions = {},
): CredentialPresence[] {
  const fileExists = options.fileExists ?? existsSync;
  const has = (name: string) => readVariable(env, name) !== undefined;
  const named = (...names: string[]) => names.filter(has);
  return [
    keyed(
      'anthropic',
      named('ANTHROPIC_API_KEY'),
      named('ANTHROPIC_BASE_URL'),
      'ANTHROPIC_API_KEY',
    ),
    keyed('openai', named('OPENAI_API_KEY'), named('OPENAI_BASE_URL'), 'OPENAI_API_KEY'),
    keyed('openrouter', named('OPENROUTER_API_KEY'), [], 'OPENROUTER_API_KEY'),
    bedrockPresence(env, named(...AWS_CREDENTIAL_VARIABLES), fileExists),
    // Local servers and Ollama need no key; LOCAL_API_KEY only replaces the placeholder.
    {
      provider: 'local',
      isPresent: true,
      found: named('LOCAL_API_KEY'),
      needs: 'nothing (LOCAL_API_KEY is optional)',
    },
    { provider: 'ollama', isPresent: true, found: [], needs: 'nothing' },
  ];
}

function keyed(
  provider: ProviderName,
  keys: string[],
  extras: string[],
  needs: string,
): CredentialPresence {
  return { provider, isPresent: keys.length > 0, found: [...keys, ...extras], needs };
}

function bedrockPresence(
  env: ProviderEnvironment,
  variables: string[],
  fileExists: (filePath: string) => boolean,
): CredentialPresence {
  const home = readVariable(env, 'HOME');
  const files = [
    readVariable(env, 'AWS_CONFIG_FILE') ?? (home && path.join(home, '.aws', 'config')),
    readVariable(env, 'AWS_SHARED_CREDENTIALS_FILE') ??
      (home && path.join(home, '.aws', 'credentials')),
  ].filter((file): file is string => Boolean(file) && fileExists(file as string));
  const regions = ['BEDROCK_REGION', 'AWS_REGION', 'AWS_DEFAULT_REGION'].filter(
    (name) => readVariable(env, name) !== undefined,
  );
  const found = [...variables, ...files.map((file) => tildePath(file, home)), ...regions];
  return {
    provider: 'bedrock',
    isPresent: variables.length > 0 || files.length > 0,
    found,
    needs:
      'AWS credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID, ~/.aws/config or an instance role) and a region',
  };
}

function tildePath(file: string, home: string | undefined): string {
  return home && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}
