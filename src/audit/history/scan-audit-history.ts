import { prepareGitEnvironment } from '../../shared/git/prepare-git-environment.js';
import { createRedactor } from '../../safety/redact/redactor.js';
import type { AuditOptions } from '../audit-options.js';
import { scanHistory, type HistoryScanResult } from './scan-history.js';

const BYTES_PER_MB = 1_000_000;

/**
 * The audit's history step: with `--history` every commit reachable from HEAD, with `--diff <ref>`
 * the commits of `<ref>..HEAD`, else none (null). Progress is reported per commit.
 */
export async function scanAuditHistory(options: AuditOptions): Promise<HistoryScanResult | null> {
  const since = options.scansAllHistory === true ? null : options.diffRef;
  if (options.scansAllHistory !== true && since === null) return null;
  const gitEnv = await prepareGitEnvironment(options.root, options.env, {
    homeDir: options.env.HOME,
    xdgConfigHome: options.env.XDG_CONFIG_HOME,
  });
  const redactor = createRedactor();
  return scanHistory({
    root: options.root,
    gitEnv,
    since,
    maxFileBytes: options.maxFileBytes,
    include: options.include,
    exclude: options.exclude,
    redact: (text) => redactor.redact(text),
    onProgress: (done, total, bytes) =>
      options.onProgress?.({
        stage: 'history',
        done,
        total,
        message: `${(bytes / BYTES_PER_MB).toFixed(1)} MB read`,
      }),
  });
}
