import type { CandidateFile, ConfigChange, LedgerEntry, SecretFile } from '../types.js';
import type { DiffBase } from './list-changed-files.js';

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
  /** Files larger than this are not reviewed (`too-large`, decided from lstat); they are still scanned for secrets. */
  maxFileBytes: number;
  /** Whether the files of checked-out submodules are listed (`--no-submodules` says no); default yes. */
  submodules?: boolean;
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
  /**
   * Files to read, sorted by path (byte order). One with a `reviewSkip` (a default folder, the
   * repository's own rules, a lockfile or `*.min.*` name, too large) is read for committed secrets
   * only, so where a repository puts a secret cannot take it out of the gate.
   */
  candidates: CandidateFile[];
  /** Every file not read, with its reason, sorted by path (byte order). */
  ledger: LedgerEntry[];
  isGitRepo: boolean;
  /** With `--diff`: the commits it compares against. */
  diff: DiffBase | null;
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
