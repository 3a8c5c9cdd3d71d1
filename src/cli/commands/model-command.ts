import { findDeprecation } from '../../providers/catalogue/find-deprecation.js';
import { resolveOyPaths } from '../../config/config-paths.js';
import { readConfigFile } from '../../config/load-config.js';
import { saveUserConfigValues } from '../../config/save-user-config.js';
import { parseModelId } from '../../providers/model-id/parse-model-id.js';
import { resolveModelId, type ResolvedModelId } from '../../providers/model-id/resolve-model-id.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { stringifyForTerminal } from '../../shared/terminal/stringify-for-terminal.js';
import type { GlobalOptions } from '../global-options.js';
import { buildModelListing } from '../model/build-model-listing.js';
import { renderModelListing } from '../model/render-model-listing.js';
import { parseText } from '../parse-flags.js';
import { createColors, shouldColor } from '../terminal.js';

/** `oy model [id]`: with an id, save it as the default; without, list what is configured and known. */
export async function runModelCommand(id: string | undefined, flags: GlobalOptions): Promise<void> {
  if (id !== undefined) return saveDefaultModel(String(id), flags);
  const env = process.env;
  const configFile = resolveOyPaths(env).userConfigFile;
  let resolved: ResolvedModelId | null = null;
  let resolveError: string | null = null;
  try {
    const userFile = await readConfigFile(configFile);
    resolved = resolveModelId({
      flag: parseText('--model', flags.model),
      env: env.OY_MODEL,
      config: userFile?.model,
      models: userFile?.models,
    });
  } catch (error) {
    resolveError = (error as Error).message;
  }
  const listing = await buildModelListing({ env, resolved, resolveError, configFile });
  if (flags.json) {
    process.stdout.write(stringifyForTerminal(listing, 2) + '\n');
    return;
  }
  const colors = createColors(shouldColor(process.stdout, flags, env));
  process.stdout.write(renderModelListing(listing, colors));
}

async function saveDefaultModel(text: string, flags: GlobalOptions): Promise<void> {
  const env = process.env;
  const ref = parseModelId(text);
  const configFile = resolveOyPaths(env).userConfigFile;
  const deprecatedUntil = findDeprecation(ref);
  await saveUserConfigValues(configFile, { model: ref.id });

  if (!flags.quiet) {
    if (deprecatedUntil) {
      process.stderr.write(
        `warning: ${ref.id} is deprecated and reaches end of life on ${deprecatedUntil}; consider a newer model (oy model lists them)\n`,
      );
    }
    if (env.OY_MODEL?.trim()) {
      process.stderr.write(
        `note: OY_MODEL is set, and overrides the saved default in this environment\n`,
      );
    }
  }
  if (flags.json) {
    const saved = { saved: ref.id, provider: ref.provider, configFile, deprecatedUntil };
    process.stdout.write(stringifyForTerminal(saved, 2) + '\n');
  } else {
    process.stdout.write(
      neutralizeControl(`saved ${ref.id} as the default model in ${configFile}\n`),
    );
  }
}
