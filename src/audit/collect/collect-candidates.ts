import path from 'node:path';
import { UsageError } from '../../shared/errors.js';
import type { CandidateFile, LedgerEntry, SecretFile } from '../types.js';
import type { GitHomeDirectories } from '../../shared/git/build-git-environment.js';
import { prepareGitEnvironment } from '../../shared/git/prepare-git-environment.js';
import { classifyStats } from './classify-stats.js';
import { isSecretBearingFile } from '../../safety/secret-files.js';
import { createParentFolderCheck } from '../../shared/files/check-parent-folders.js';
import type { CollectOptions, CollectResult, ListedPath } from './collect-types.js';
import { comparePaths } from '../../shared/files/compare-paths.js';
import { createIgnoreMatcher } from '../../shared/ignore/ignore-matcher.js';
import { createPathFilter, type PathFilter } from './create-path-filter.js';
import { listChangedFiles } from './list-changed-files.js';
import { listGitFiles } from './list-git-files.js';
import { loadOuterIgnoreRules } from '../../shared/ignore/load-outer-ignore-rules.js';
import { lstatAll } from './lstat-all.js';
import { readSmallTextFile } from '../../shared/files/read-small-text-file.js';
import { skipEntry } from './skip-entry.js';
import { walkFiles } from './walk-files.js';

export type { CollectOptions, CollectResult } from './collect-types.js';

/**
 * Lists the workspace's candidate files and decides every path-based skip, reading no file
 * content: git's listing in a work tree, a gitignore-aware walk elsewhere.
 */
export async function collectCandidates(options: CollectOptions): Promise<CollectResult> {
  const { root } = options;
  const home: GitHomeDirectories = {
    homeDir: options.homeDir ?? options.env?.HOME,
    xdgConfigHome: options.xdgConfigHome ?? options.env?.XDG_CONFIG_HOME,
  };
  const gitEnv = await prepareGitEnvironment(root, options.env ?? {}, home);
  const gitListing = await listGitFiles(root, gitEnv);
  const isGitRepo = gitListing !== null;
  if (options.diffRef !== undefined && !isGitRepo) {
    throw new UsageError(`\`--diff\` needs a git work tree, and \`${root}\` is not in one`);
  }
  const changed =
    options.diffRef === undefined ? null : await listChangedFiles(root, options.diffRef, gitEnv);
  const filter = await createWorkspaceFilter(options, changed);

  const listing =
    gitListing ?? (await walkFiles(root, await loadOuterIgnoreRules(root, home), filter));
  const ledger: LedgerEntry[] = [...listing.ledger];
  const listed = listing.files;

  const toStat: ListedPath[] = [];
  const checkParents = createParentFolderCheck(root);
  for (const entry of listed) {
    const skip = filter.checkFile(entry);
    // Secret-bearing names are recorded whatever the work tree holds, and never opened.
    const parents =
      skip === null && !isSecretBearingFile(entry.path) ? checkParents(entry.path) : null;
    if (skip !== null) ledger.push(skip);
    else if (entry.isGitlink) {
      ledger.push(skipEntry(`${entry.path}/`, 'not-regular-file', 'git submodule'));
    } else if (parents?.kind === 'symlink') {
      // A git index can list a path below a symlinked folder; it is never opened through the link.
      ledger.push(skipEntry(entry.path, 'symlink', `folder ${parents.folder} is a symlink`));
    } else if (parents?.kind === 'missing') ledger.push(skipEntry(entry.path, 'missing'));
    else toStat.push(entry);
  }

  const absolutePaths = toStat.map((entry) => path.join(root, entry.path));
  const stats = await lstatAll(absolutePaths);
  const candidates: CandidateFile[] = [];
  const secretFiles: SecretFile[] = [];
  toStat.forEach((entry, index) => {
    const verdict = classifyStats(
      entry,
      absolutePaths[index] ?? '',
      stats[index] ?? new Error('no stat'),
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
    secretFiles: secretFiles.sort(byPath),
  };
}

async function createWorkspaceFilter(
  options: CollectOptions,
  changed: ReadonlySet<string> | null,
): Promise<PathFilter> {
  const oyignore = createIgnoreMatcher();
  const oyignoreText = await readSmallTextFile(path.join(options.root, '.oyignore'));
  if (oyignoreText !== null) oyignore.addFile(oyignoreText);
  const exclude = createIgnoreMatcher();
  exclude.addPatterns(options.exclude);
  const include = createIgnoreMatcher();
  include.addPatterns(options.include);
  return createPathFilter({ oyignore, exclude, include, changed });
}
