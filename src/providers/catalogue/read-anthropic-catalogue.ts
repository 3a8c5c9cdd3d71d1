import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { OyError } from '../../shared/errors.js';

const SDK_NAME = '@anthropic-ai/sdk';

/** Anthropic model ids as the installed SDK knows them: no hard-coded list to go stale. */
export interface AnthropicCatalogue {
  sdkVersion: string;
  /** In the SDK's order (newest first). */
  models: string[];
  /** Deprecated id -> end-of-life date, as the SDK words it. */
  deprecated: Record<string, string>;
}

/** Finds the installed SDK's root directory; injectable for tests. */
export type LocateSdk = () => string;

/**
 * Reads the `Model` union from the SDK's `messages.d.ts` and `DEPRECATED_MODELS` from `messages.js`.
 * Throws an OyError when the files are missing or their shape changed, so the caller can say so and list none.
 */
export function readAnthropicCatalogue(
  locateSdk: LocateSdk = locateInstalledSdk,
): AnthropicCatalogue {
  const root = locateSdk();
  const read = (relative: string) => {
    try {
      return readFileSync(path.join(root, relative), 'utf8');
    } catch {
      throw new OyError(`cannot read ${SDK_NAME}/${relative}`);
    }
  };
  const sdkVersion = String(
    (JSON.parse(read('package.json')) as { version?: unknown }).version ?? 'unknown',
  );
  const models = parseModelUnion(read('resources/messages/messages.d.ts'));
  if (models.length === 0) throw new OyError(`no model ids found in ${SDK_NAME} ${sdkVersion}`);
  return {
    sdkVersion,
    models,
    deprecated: parseDeprecatedModels(read('resources/messages/messages.js')),
  };
}

/** `export type Model = 'claude-a' | 'claude-b' | (string & {});` -> the quoted ids. */
export function parseModelUnion(declarations: string): string[] {
  const union = /export type Model\s*=([^;]+);/.exec(declarations)?.[1];
  if (union === undefined) return [];
  return [...new Set([...union.matchAll(/'([^'\s]+)'/g)].map((match) => match[1]!))];
}

/** `const DEPRECATED_MODELS = { 'claude-x': 'November 30th, 2026', ... };` -> a map. */
export function parseDeprecatedModels(source: string): Record<string, string> {
  const body = /DEPRECATED_MODELS\s*=\s*\{([^}]*)\}/.exec(source)?.[1];
  if (body === undefined) return {};
  const entries = [...body.matchAll(/['"]([^'"]+)['"]\s*:\s*['"]([^'"]+)['"]/g)];
  return Object.fromEntries(entries.map((match) => [match[1]!, match[2]!]));
}

/** The SDK does not export its package.json, so resolve its main entry and walk up to the package root. */
function locateInstalledSdk(): string {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve(SDK_NAME);
  } catch {
    throw new OyError(`${SDK_NAME} is not installed`);
  }
  for (let dir = path.dirname(entry); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (readPackageName(path.join(dir, 'package.json')) === SDK_NAME) return dir;
  }
  throw new OyError(`cannot find the ${SDK_NAME} package directory`);
}

function readPackageName(file: string): unknown {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}
