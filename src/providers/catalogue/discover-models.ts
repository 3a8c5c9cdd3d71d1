import type { ProviderEnvironment } from '../provider-environment.js';
import { readVariable } from '../provider-environment.js';
import type { OpenAiSettings } from '../provider-settings.js';
import { resolveProviderSettings } from '../resolve-provider-settings.js';
import type { ModelRef, ProviderName } from '../types.js';

/** `GET /models` gives up after this long (README.md "Models and providers"). */
export const DISCOVERY_TIMEOUT_MS = 5_000;

/** An OpenAI-compatible endpoint worth asking for its models. */
export interface DiscoveryTarget {
  provider: ProviderName;
  /** The id prefix discovered models get: `openai`, `openrouter`, `ollama`, `local-8080`. */
  prefix: string;
  /** Null when the settings could not be resolved (a bad base URL); `setupError` says why. */
  settings: OpenAiSettings | null;
  setupError: string | null;
}

export interface DiscoveredModels {
  provider: ProviderName;
  /** The base URL without credentials or query. */
  endpoint: string;
  /** Full oy ids. */
  models: string[];
  /** One line when the endpoint could not be listed; never a secret. */
  error: string | null;
}

export type ListModels = (
  settings: OpenAiSettings,
  options: { timeoutMs: number; signal?: AbortSignal },
) => Promise<string[]>;

/**
 * The endpoints that are configured: OpenAI and OpenRouter when their key is set, and the endpoint of the
 * resolved model when it is a local server or Ollama. Nothing else is contacted.
 */
export function listDiscoveryTargets(
  env: ProviderEnvironment,
  resolved: ModelRef | null,
): DiscoveryTarget[] {
  const refs: ModelRef[] = [];
  if (readVariable(env, 'OPENAI_API_KEY')) refs.push(listingRef('openai'));
  if (readVariable(env, 'OPENROUTER_API_KEY')) refs.push(listingRef('openrouter'));
  if (resolved && (resolved.provider === 'local' || resolved.provider === 'ollama'))
    refs.push(resolved);
  const targets: DiscoveryTarget[] = [];
  for (const ref of refs) {
    const prefix = ref.id.slice(0, ref.id.indexOf('::'));
    let settings: OpenAiSettings;
    try {
      const resolvedSettings = resolveProviderSettings(ref, env);
      if (resolvedSettings.client !== 'openai') continue;
      settings = resolvedSettings.settings;
    } catch (error) {
      targets.push({
        provider: ref.provider,
        prefix,
        settings: null,
        setupError: (error as Error).message,
      });
      continue;
    }
    if (!targets.some((target) => target.settings?.baseURL === settings.baseURL)) {
      targets.push({ provider: ref.provider, prefix, settings, setupError: null });
    }
  }
  return targets;
}

/** Asks each endpoint in parallel; a failure is one line in its entry, never an exception. */
export async function discoverModels(
  targets: DiscoveryTarget[],
  options: { timeoutMs?: number; listModels?: ListModels } = {},
): Promise<DiscoveredModels[]> {
  const timeoutMs = options.timeoutMs ?? DISCOVERY_TIMEOUT_MS;
  const listModels = options.listModels ?? loadListOpenAiModels;
  return Promise.all(
    targets.map(async (target) => {
      if (target.settings === null) {
        return {
          provider: target.provider,
          endpoint: '(not configured)',
          models: [],
          error: target.setupError,
        };
      }
      const endpoint = displayEndpoint(target.settings.baseURL);
      try {
        const ids = await listModels(target.settings, { timeoutMs });
        return {
          provider: target.provider,
          endpoint,
          models: ids.map((id) => `${target.prefix}::${id}`),
          error: null,
        };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { provider: target.provider, endpoint, models: [], error: message };
      }
    }),
  );
}

/** Imported only when an endpoint is configured, so listing nothing never loads the OpenAI SDK. */
const loadListOpenAiModels: ListModels = async (settings, options) => {
  const { listOpenAiModels } = await import('../openai/list-openai-models.js');
  return listOpenAiModels(settings, options);
};

function listingRef(provider: 'openai' | 'openrouter'): ModelRef {
  return { provider, model: '*', id: `${provider}::*` };
}

/** A base URL safe to show: no `user:password@`, no query. */
export function displayEndpoint(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}
