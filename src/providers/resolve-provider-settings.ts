import { ConfigError } from '../shared/errors.js';
import { readVariable, type ProviderEnvironment } from './provider-environment.js';
import type { AnthropicSettings, BedrockSettings, OpenAiSettings } from './provider-settings.js';
import type { ModelRef } from './types.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';
export const OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';
/** Sent to local servers when LOCAL_API_KEY is unset: most ignore the key but the SDK wants one. */
export const LOCAL_DEFAULT_API_KEY = 'oy-local';
/** Ollama accepts any key; this is what its documentation uses. */
export const OLLAMA_API_KEY = 'ollama';
export const BEDROCK_REGION_VARIABLES = [
  'BEDROCK_REGION',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
] as const;

/** Which client a model id needs, with the settings to build it. */
export type ProviderSettings =
  | { client: 'anthropic'; settings: AnthropicSettings }
  | { client: 'openai'; settings: OpenAiSettings }
  | { client: 'bedrock'; settings: BedrockSettings };

export interface ResolveSettingsOptions {
  timeoutMs?: number;
}

/**
 * The connection settings for a model id, from the environment passed in (README.md "Models and providers"'s table).
 * A missing key or region is a ConfigError that names the variable.
 */
export function resolveProviderSettings(
  ref: ModelRef,
  env: ProviderEnvironment,
  options: ResolveSettingsOptions = {},
): ProviderSettings {
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  switch (ref.provider) {
    case 'anthropic': {
      const baseURL = readUrl(env, 'ANTHROPIC_BASE_URL');
      const settings: AnthropicSettings = {
        apiKey: requireVariable(ref, env, 'ANTHROPIC_API_KEY'),
        ...(baseURL === undefined ? {} : { baseURL }),
        ...timeout,
      };
      return { client: 'anthropic', settings };
    }
    case 'openai':
      return openAi(
        requireVariable(ref, env, 'OPENAI_API_KEY'),
        readUrl(env, 'OPENAI_BASE_URL') ?? OPENAI_DEFAULT_BASE_URL,
        timeout,
      );
    case 'openrouter':
      return openAi(requireVariable(ref, env, 'OPENROUTER_API_KEY'), OPENROUTER_BASE_URL, timeout);
    case 'local':
      return openAi(
        readVariable(env, 'LOCAL_API_KEY') ?? LOCAL_DEFAULT_API_KEY,
        `http://127.0.0.1:${ref.port ?? portFromId(ref)}/v1`,
        timeout,
      );
    case 'ollama':
      return openAi(OLLAMA_API_KEY, OLLAMA_BASE_URL, timeout);
    case 'bedrock':
      return { client: 'bedrock', settings: bedrockSettings(ref, env, timeout) };
  }
}

function openAi(
  apiKey: string,
  baseURL: string,
  timeout: { timeoutMs?: number },
): ProviderSettings {
  return { client: 'openai', settings: { apiKey, baseURL, ...timeout } };
}

function bedrockSettings(
  ref: ModelRef,
  env: ProviderEnvironment,
  timeout: { timeoutMs?: number },
): BedrockSettings {
  const region = BEDROCK_REGION_VARIABLES.map((name) => readVariable(env, name)).find(Boolean);
  if (region === undefined) {
    throw new ConfigError(`${ref.id} needs an AWS region, and none is set`, {
      hint: 'set BEDROCK_REGION (or AWS_REGION), such as BEDROCK_REGION=us-east-1; run oy doctor to check the set-up',
    });
  }
  const endpoint = readUrl(env, 'AWS_ENDPOINT_URL_BEDROCK_RUNTIME');
  const profile = readVariable(env, 'AWS_PROFILE');
  return {
    region,
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(profile === undefined ? {} : { profile }),
    ...timeout,
  };
}

function requireVariable(ref: ModelRef, env: ProviderEnvironment, name: string): string {
  const value = readVariable(env, name);
  if (value === undefined) {
    throw new ConfigError(`${ref.id} needs ${name}, which is not set`, {
      hint: `export ${name}=<your key>, then run oy doctor to check the set-up`,
    });
  }
  return value;
}

/** A base URL variable, checked here so a typo is a clear config error rather than an SDK failure. */
function readUrl(env: ProviderEnvironment, name: string): string | undefined {
  const value = readVariable(env, name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not a URL`, {
      hint: `set it to an http:// or https:// URL, or unset it`,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got ${url.protocol}`, {
      hint: 'fix it or unset it; run oy doctor to check the set-up',
    });
  }
  return value.replace(/\/+$/, '');
}

/** A ref built by hand may lack `port`; the canonical id still carries it. */
function portFromId(ref: ModelRef): number {
  const match = /^local-(\d+)::/.exec(ref.id);
  if (!match)
    throw new ConfigError(`${ref.id} does not name a local port`, {
      hint: 'use local-<port>::<model>',
    });
  return Number(match[1]);
}
