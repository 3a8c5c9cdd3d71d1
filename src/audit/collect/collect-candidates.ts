import path from 'node:path';
import { UsageError } from '../../shared/errors.js';
import type { CandidateFile, ConfigChange, LedgerEntry, SecretFile } from '../types.js';
import type { GitHomeDirectories } from '../../shared/git/build-git-environment.js';
import { prepareGitEnvironment } from '../../shared/git/prepare-git-environment.js';
import { classifyStats } from './classify-stats.js';
import { isSecretBearingFile } from '../../safety/secret-files.js';
import { createParentFolderCheck } from '../../shared/files/check-parent-folders.js';
import type { CollectOptions, CollectResult, ListedPath } from './collect-types.js';
import { comparePaths } from '../../shared/files/compare-paths.js';
import { createIgnoreMatcher, type IgnoreMatcher } from '../../shared/ignore/ignore-matcher.js';
import { createPathFilter, PROJECT_FILE, type PathFilter } from './create-path-filter.js';
import { listChangedFiles, resolveDiffBase } from './list-changed-files.js';
import { listGitFiles } from './list-git-files.js';
import { listSubmoduleFiles } from './list-submodule-files.js';
import { loadOuterIgnoreRules } from '../../shared/ignore/load-outer-ignore-rules.js';
import { lstatAll } from './lstat-all.js';
import { readSmallTextFile } from '../../shared/files/read-small-text-file.js';
import { skipEntry } from './skip-entry.js';
import { walkFiles } from './walk-files.js';

export type { CollectOptions, CollectResult } from './collect-types.js';

/**
 * Lists the workspace's candidate files and decides every path-based skip, reading no file
 * content: git's listing in a work tree (checked-out submodules included), a gitignore-aware walk
 * elsewhere.
 */
export async function collectCandidates(options: CollectOptions): Promise<CollectResult> {
  const { root } = options;
  const home: GitHomeDirectories = {
    homeDir: options.homeDir ?? options.env?.HOME,
    xdgConfigHome: options.xdgConfigHome ?? options.env?.XDG_CONFIG_HOME,
  };
  const gitEnvFor = (dir: string) => prepareGitEnvironment(dir, options.env ?? {}, home);
  const gitEnv = await gitEnvFor(root);
  const gitListing = await listGitFiles(root, gitEnv);
  const isGitRepo = gitListing !== null;
  if (options.diffRef !== undefined && !isGitRepo) {
    throw new UsageError(`\`--diff\` needs a git work tree, and \`${root}\` is not in one`, {
      hint: 'run oy inside a git checkout, or drop --diff to audit every file',
    });
  }
  const diff =
    options.diffRef === undefined ? null : await resolveDiffBase(root, options.diffRef, gitEnv);
  const changed = diff === null ? null : await listChangedFiles(root, diff.base, gitEnv);
  const filter = await createWorkspaceFilter(options, changed);

  const listing =
    gitListing ?? (await walkFiles(root, await loadOuterIgnoreRules(root, home), filter));
  const ledger: LedgerEntry[] = [...listing.ledger];
  const submodules = await listSubmoduleFiles(
    root,
    listing.files.filter((entry) => entry.isGitlink),
    {
      isIncluded: options.submodules !== false,
      gitEnv: gitEnvFor,
      checkDirectory: (dirPath) => filter.checkDirectory(dirPath),
      diff: diff === null || changed === null ? null : { base: diff.base, changed },
    },
  );
  ledger.push(...submodules.ledger);
  for (const path of submodules.changed) changed?.add(path);
  const listed = [...listing.files.filter((entry) => !entry.isGitlink), ...submodules.files];

  const toStat: ListedPath[] = [];
  const checkParents = createParentFolderCheck(root);
  const validPaths = new Set(listed.flatMap((entry) => (entry.isValidName ? [entry.path] : [])));
  for (const entry of listed) {
    // An escaped name that reads as another file's name would make the two one path: not read.
    const skip =
      !entry.isValidName && validPaths.has(entry.path)
        ? skipEntry(
            entry.path,
            'invalid-name',
            'escaped, its name is also the name of another file',
          )
        : filter.checkFile(entry);
    // Secret-bearing names are recorded whatever the work tree holds, and never opened.
    const parents =
      skip === null && !isSecretBearingFile(entry.path)
        ? checkParents(entry.nameBytes ?? entry.path)
        : null;
    if (skip !== null) ledger.push(skip);
    else if (parents?.kind === 'symlink') {
      // A git index can list a path below a symlinked folder; it is never opened through the link.
      ledger.push(skipEntry(entry.path, 'symlink', `folder ${parents.folder} is a symlink`));
    } else if (parents?.kind === 'missing') ledger.push(skipEntry(entry.path, 'missing'));
    else toStat.push(entry);
  }

  // A name that is not UTF-8 is opened by its own bytes, never by its escaped text.
  const absolutePaths = toStat.map((entry) =>
    entry.nameBytes === undefined
      ? path.join(root, entry.path)
      : Buffer.concat([Buffer.from(`${root}/`), entry.nameBytes]),
  );
  const stats = await lstatAll(absolutePaths);
  const candidates: CandidateFile[] = [];
  const secretFiles: SecretFile[] = [];
  toStat.forEach((entry, index) => {
    const verdict = classifyStats(
      entry,
      absolutePaths[index] ?? '',
      stats[index] ?? new Error('no stat'),
      filter.findReviewSkip(entry.path),
      options.maxFileBytes,
    );
    if (verdict.kind === 'candidate') candidates.push(verdict.candidate);
    else {
      ledger.push(verdict.entry);
      if (verdict.secretFile !== undefined) secretFiles.push(verdict.secretFile);
    }
  });

  const byPath = (a: { path: string }, b: { path: string }): number => comparePaths(a.path, b.path);
  return {
    candidates: candidates.sort(byPath),
    ledger: ledger.sort(byPath),
    isGitRepo,
    diff,
    secretFiles: secretFiles.sort(byPath),
    configChanges: changed === null ? [] : findConfigChanges(changed, listed, options.baselineFile),
  };
}

/** The audit's own configuration files, relative to the workspace root it reads them from; in byte order. */
const AUDIT_CONFIG_FILES = [PROJECT_FILE, '.oyignore'];

/** Configuration files changed since the ref (deletions included), or new and untracked. */
function findConfigChanges(
  changed: ReadonlySet<string>,
  listed: readonly ListedPath[],
  baselineFile: string | undefined,
): ConfigChange[] {
  const untracked = new Set(listed.filter((entry) => !entry.isTracked).map((entry) => entry.path));
  const watched =
    baselineFile === undefined ? AUDIT_CONFIG_FILES : [...AUDIT_CONFIG_FILES, baselineFile];
  return [...new Set(watched)]
    .filter((file) => changed.has(file) || untracked.has(file))
    .map((file) => ({ path: file }));
}

async function createWorkspaceFilter(
  options: CollectOptions,
  changed: ReadonlySet<string> | null,
): Promise<PathFilter> {
  const oyignore = createIgnoreMatcher();
  const oyignoreText = await readSmallTextFile(path.join(options.root, '.oyignore'));
  if (oyignoreText !== null) oyignore.addFile(oyignoreText);
  return createPathFilter({
    exclude: matchPatterns(options.exclude),
    include: matchPatterns(options.include),
    changed,
    repository: {
      oyignore,
      exclude: matchPatterns(options.projectExclude ?? []),
      include: matchPatterns(options.projectInclude ?? []),
    },
  });
}

function matchPatterns(patterns: readonly string[]): IgnoreMatcher {
  const matcher = createIgnoreMatcher();
  matcher.addPatterns(patterns);
  return matcher;
}
