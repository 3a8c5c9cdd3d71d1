import type { LedgerEntry, SkipReason, UnreviewedChange } from '../types.js';

/**
 * Who caused a skip, which decides whether the file counts as not reviewed:
 * - `repository`: what the audited repository wrote (a folder or file name, a marker, an
 *   encoding, a size, its own `.oyignore` or project file, a link): counts, and is listed;
 * - `error`: the file could not be read as listed: counts;
 * - `partial`: the user asked for part of the review (`--riskiest`, `--no-submodules`): counts;
 * - `user`: the user's own choice (`--exclude`, `--include`, `--diff`, `--scope`, own outputs);
 * - `nothing`: nothing there to review (empty, a symlink, a special file, binary content under a
 *   binary name, a secret-bearing file, which is reported on its own).
 */
export type SkipCause = 'repository' | 'error' | 'partial' | 'user' | 'nothing';

/** The one table of skip reasons: the compiler demands a row for each new reason. */
export const SKIP_CAUSES: Readonly<Record<SkipReason, SkipCause>> = {
  'default-dir': 'repository',
  lockfile: 'repository',
  minified: 'repository',
  generated: 'repository',
  'unexpected-binary': 'repository',
  'invalid-utf8': 'repository',
  'too-large': 'repository',
  'line-too-long': 'repository',
  'invalid-name': 'repository',
  'hard-link': 'repository',
  'repository-ignore': 'repository',
  'project-exclude': 'repository',
  'submodule-not-checked-out': 'repository',
  'submodule-outside': 'repository',
  unreadable: 'error',
  missing: 'error',
  budget: 'partial',
  submodule: 'partial',
  excluded: 'user',
  'not-included': 'user',
  unchanged: 'user',
  scope: 'user',
  'oy-output': 'user',
  binary: 'nothing',
  empty: 'nothing',
  symlink: 'nothing',
  'not-regular-file': 'nothing',
  'secret-file': 'nothing',
  'git-dir': 'nothing',
};

/** Reasons that mean "meant to be reviewed, but was not": they lower `--min-coverage`. */
export const UNREVIEWED_SKIP_REASONS: readonly SkipReason[] = reasonsWith(
  (cause) => cause === 'repository' || cause === 'error' || cause === 'partial',
);

/** Reasons the audited repository caused by what it holds: listed by reason in every report. */
export const REPOSITORY_SKIP_REASONS: readonly SkipReason[] = reasonsWith(
  (cause) => cause === 'repository',
);

/** Whether a ledger reason (a skip reason, or any other string) is one the repository caused. */
export function isRepositorySkip(reason: string | undefined): boolean {
  return reason !== undefined && Object.hasOwn(SKIP_CAUSES, reason)
    ? SKIP_CAUSES[reason as SkipReason] === 'repository'
    : false;
}

function reasonsWith(test: (cause: SkipCause) => boolean): SkipReason[] {
  return (Object.keys(SKIP_CAUSES) as SkipReason[]).filter((reason) => test(SKIP_CAUSES[reason]));
}

/**
 * With `--diff`, every file in the ledger is one the change touched (the rest are `unchanged`):
 * each skipped for a reason the repository caused is a result of its own.
 */
export function listUnreviewedChanges(ledger: readonly LedgerEntry[]): UnreviewedChange[] {
  return ledger.flatMap((entry) =>
    entry.status === 'skipped' && isRepositorySkip(entry.reason)
      ? [
          {
            path: entry.path,
            reason: entry.reason ?? '',
            ...(entry.detail === undefined ? {} : { detail: entry.detail }),
          },
        ]
      : [],
  );
}
