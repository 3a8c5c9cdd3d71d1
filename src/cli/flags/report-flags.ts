import { AUDIT_FLAGS } from './audit-flags.js';
import type { FlagSpec } from './flag-spec.js';

/** `oy audit`'s own flag, by name: the merge means the same by it. */
function auditFlag(name: string, help?: string): FlagSpec {
  const spec = AUDIT_FLAGS.find((flag) => flag.name === name);
  if (spec === undefined) throw new Error(`no audit flag --${name}`);
  // The merge reads no config key: the shards' options are already fixed in their reports.
  const { configKey: _configKey, ...rest } = spec;
  return help === undefined ? rest : { ...rest, help };
}

/** The flags of `oy report merge`; the gates and outputs are the audit's. */
export const REPORT_FLAGS: readonly FlagSpec[] = [
  auditFlag('out', 'Merged report file inside the workspace; - writes it to stdout'),
  auditFlag('format'),
  auditFlag('fail-on'),
  auditFlag('min-coverage'),
  auditFlag('allow-partial'),
  auditFlag('baseline'),
  auditFlag('offline', 'Skip the reduce call even when a model is configured'),
  auditFlag('force'),
  auditFlag('no-cache', 'Neither read nor write the reduce answer in the review cache'),
];
