import type { CandidateFile, ConfigChange, LedgerEntry, SecretFile } from '../types.js';

/** What to collect and how; every path option is already resolved by the caller. */
export interface CollectOptions {
  /** Absolute real path of the workspace. */
  root: string;
  /** `--include` globs (gitignore syntax); when non-empty, other files are skipped('not-included'). */
  include: string[];
  /** `--exclude` globs (gitignore syntax). */
  exclude: string[];
  /**
   * The project file's `audit.include` and `audit.exclude`: repository content, so the files they
   * leave out are `skipped(project-exclude)` and count as not reviewed.
   */
  projectInclude?: string[];
  projectExclude?: string[];
  /** Files larger than this are skipped('too-large'), decided from lstat before any read. */
  maxFileBytes: number;
  /** `--diff <ref>`: narrow to files changed since that git ref. */
  diffRef?: string;
  /**
   * `--baseline`, relative to the root when it lies inside the workspace: with `--diff`, a change to it
   * is reported like a change to `.oyignore`, since it decides which findings gate.
   */
  baselineFile?: string;
  /** Home directory for the global git config and excludes file; defaults to `env.HOME`. */
  homeDir?: string;
  /** `$XDG_CONFIG_HOME`; defaults to `env.XDG_CONFIG_HOME`. */
  xdgConfigHome?: string;
  /**
   * The environment git runs with (PATH, HOME, ...): the CLI passes `process.env`, since core
   * code never reads it. Without it git runs with only HOME/XDG_CONFIG_HOME from the options.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface CollectResult {
  /** Files that passed every path-based check, sorted by path (byte order). */
  candidates: CandidateFile[];
  /** Every skip decided so far, sorted by path (byte order). */
  ledger: LedgerEntry[];
  /**
   * Files the repository's own `.oyignore` or project include/exclude left out (each also in the
   * ledger): never reviewed, but still read for committed secrets, so a repository cannot take a
   * secret out of the gate by ignoring its file. Sorted by path.
   */
  leftOutByRepository: CandidateFile[];
  isGitRepo: boolean;
  /** Secret-bearing files found (never read), sorted by path. */
  secretFiles: SecretFile[];
  /** With `--diff`: the audit's own configuration files the change touches, sorted by path. */
  configChanges: ConfigChange[];
}

/** One file path a listing produced, before the path checks. */
export interface ListedPath {
  /** Root-relative POSIX path; escaped (`escapeFileName`) when the name is not valid UTF-8. */
  path: string;
  isValidName: boolean;
  /** The path's own bytes when they are not valid UTF-8: what the file is opened by. */
  nameBytes?: Buffer;
  isTracked: boolean;
  /** Git records it as a submodule commit, not a file. */
  isGitlink: boolean;
}
