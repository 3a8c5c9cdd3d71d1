import type { ConfigFile } from '../../config/config-schema.js';
import { flagKey, type FlagSpec } from './flag-spec.js';

/** The config layer the flags make: each given flag with a `configKey` sets that key, so flags merge like config. */
export function buildFlagLayer(flags: readonly FlagSpec[], values: object): ConfigFile {
  const layer: ConfigFile = {};
  const audit: Record<string, unknown> = {};
  for (const flag of flags) {
    const value = (values as Record<string, unknown>)[flagKey(flag)];
    if (flag.configKey === undefined || value === undefined) continue;
    if (flag.configKey === 'model') layer.model = String(value);
    else audit[flag.configKey.slice('audit.'.length)] = value;
  }
  if (Object.keys(audit).length > 0) layer.audit = audit as NonNullable<ConfigFile['audit']>;
  return layer;
}
