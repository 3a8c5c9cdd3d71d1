import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { createParentFolderCheck } from '../../shared/files/check-parent-folders.js';
import { runGit } from '../../shared/git/run-git.js';
import { createIgnoreMatcher } from '../../shared/ignore/ignore-matcher.js';
import type { LedgerEntry } from '../types.js';
import type { ListedPath } from './collect-types.js';
import { listChangedFiles } from './list-changed-files.js';
import { listGitFiles } from './list-git-files.js';
import { skipEntry } from './skip-entry.js';
import { walkFiles } from './walk-files.js';

export interface SubmoduleOptions {
  /** `--no-submodules`: list each submodule as `skipped(submodule)` instead of its files. */
  isIncluded: boolean;
  /** The environment git runs with in a folder (its own `safe.directory`), hardened by `runGit`. */
  gitEnv(dir: string): Promise<Record<string, string>>;
  /** The user's `--exclude` for a folder: an excluded submodule is not entered. */
  checkDirectory(dirPath: string): LedgerEntry | null;
  /**
   * With `--diff`: the commit the enclosing repository is compared with (null: it is new, so all
   * of it counts as changed) and its changed paths (a submodule whose recorded commit changed is
   * listed by its folder). Null without `--diff`.
   */
  diff: { base: string | null; changed: ReadonlySet<string> } | null;
}

export interface SubmoduleListing {
  /** Files of checked-out submodules, nested ones included, with workspace-relative paths. */
  files: ListedPath[];
  /** Submodules not entered: not checked out, excluded, `--no-submodules`, or unlistable. */
  ledger: LedgerEntry[];
  /** With `--diff`: their tracked files changed since the commit the superproject recorded then. */
  changed: string[];
}

/**
 * Lists the files of the checked-out submodules among `gitlinks` (paths relative to `root`), as
 * git lists the superproject's: tracked plus untracked and not ignored. Every git process goes
 * through `runGit`, so a submodule's own config (its hooks, fsmonitor, a bare layout) runs
 * nothing; the files are then read from the work tree like any other.
 */
export async function listSubmoduleFiles(
  root: string,
  gitlinks: readonly ListedPath[],
  options: SubmoduleOptions,
): Promise<SubmoduleListing> {
  if (gitlinks.length === 0 || !options.isIncluded) return listWithin(root, gitlinks, options, []);
  return listWithin(root, gitlinks, options, await findGitDirHomes(root, options));
}

/**
 * Where a submodule's git directory may lie: the workspace itself (an old-style `.git` folder)
 * or the superproject's git folder (`.git/modules/...`, a linked work tree's included). A `.git`
 * file naming anywhere else (another repository of the user's) is never listed through.
 */
async function findGitDirHomes(root: string, options: SubmoduleOptions): Promise<string[]> {
  const common = await runGit(['rev-parse', '--git-common-dir'], {
    cwd: root,
    env: await options.gitEnv(root),
  });
  const homes = [realPathOrNull(root)];
  if (common.ok)
    homes.push(realPathOrNull(path.resolve(root, common.stdout.toString('utf8').trim())));
  return homes.filter((home): home is string => home !== null);
}

async function listWithin(
  root: string,
  gitlinks: readonly ListedPath[],
  options: SubmoduleOptions,
  gitDirHomes: readonly string[],
): Promise<SubmoduleListing> {
  const result: SubmoduleListing = { files: [], ledger: [], changed: [] };
  const checkParents = createParentFolderCheck(root);
  const { diff } = options;
  const rootEnv = gitlinks.length > 0 && diff?.base != null ? await options.gitEnv(root) : {};
  for (const gitlink of gitlinks) {
    const folder = gitlink.path;
    const shown = `${folder}/`;
    const excluded = options.checkDirectory(folder);
    if (excluded !== null) {
      result.ledger.push(excluded);
      continue;
    }
    // With --diff, a submodule whose recorded commit the change leaves alone is not entered
    // unless it is checked out (its work tree may still differ).
    const isRecordedChange = diff === null || diff.base === null || diff.changed.has(folder);
    if (!options.isIncluded) {
      result.ledger.push(
        isRecordedChange
          ? skipEntry(shown, 'submodule', '--no-submodules')
          : skipEntry(shown, 'unchanged'),
      );
      continue;
    }
    const parents = checkParents(`${folder}/.git`);
    if (parents.kind === 'symlink') {
      result.ledger.push(skipEntry(shown, 'symlink', `folder ${parents.folder} is a symlink`));
      continue;
    }
    if (parents.kind === 'missing' || !hasGitEntry(path.join(root, folder))) {
      result.ledger.push(
        isRecordedChange
          ? skipEntry(
              shown,
              'submodule-not-checked-out',
              'run git submodule update --init to audit it',
            )
          : skipEntry(shown, 'unchanged'),
      );
      continue;
    }
    const subRoot = path.join(root, folder);
    const env = await options.gitEnv(subRoot);
    const gitDir = await findGitDir(subRoot, env);
    if (gitDir === null || !gitDirHomes.some((home) => isInside(gitDir, home))) {
      // Its files are on disk all the same: walked without git (no foreign index, config or
      // exclude file), read like any other, and with --diff all of them count as changed.
      result.ledger.push(
        skipEntry(
          shown,
          'submodule-outside',
          "its git directory is outside the workspace and the superproject's git folder; its files were listed without git",
        ),
      );
      const prefixed = (relPath: string): string => `${folder}/${relPath}`;
      const walked = await walkFiles(
        subRoot,
        { matcher: createIgnoreMatcher(), prefix: '' },
        {
          // The user's exclusions are over workspace paths; the walker's ledger is over its own.
          checkDirectory: (dirPath) => {
            const skip = options.checkDirectory(prefixed(dirPath));
            return skip === null ? null : { ...skip, path: skip.path.slice(folder.length + 1) };
          },
        },
      );
      // Which of them git tracks is the foreign index's word: each counts as committed, so its
      // secrets gate.
      result.files.push(
        ...walked.files.map((file) => ({ ...file, path: prefixed(file.path), isTracked: true })),
      );
      result.ledger.push(
        ...walked.ledger.map((entry) => ({ ...entry, path: prefixed(entry.path) })),
      );
      if (diff !== null) result.changed.push(...walked.files.map((file) => prefixed(file.path)));
      continue;
    }
    const listing = await listGitFiles(subRoot, env);
    if (listing === null) {
      result.ledger.push(skipEntry(shown, 'unreadable', 'git cannot list the submodule'));
      continue;
    }
    const prefix = (relPath: string): string => `${folder}/${relPath}`;
    result.ledger.push(...listing.ledger.map((entry) => ({ ...entry, path: prefix(entry.path) })));
    const files = listing.files.filter((file) => !file.isGitlink);
    result.files.push(...files.map((file) => ({ ...file, path: prefix(file.path) })));

    const since =
      diff?.base == null ? null : await findRecordedCommit(root, folder, diff.base, rootEnv);
    let changedInside: Set<string> | null = null;
    if (diff !== null) {
      const changed = since === null ? null : await listChangedSince(subRoot, since, env);
      // A submodule that is new, or whose old commit this clone lacks, is changed throughout.
      changedInside = new Set(
        changed ?? files.filter((file) => file.isTracked).map((file) => file.path),
      );
      result.changed.push(...[...changedInside].map(prefix));
    }
    const nested = await listWithin(
      subRoot,
      listing.files.filter((file) => file.isGitlink),
      {
        ...options,
        // Nested ones are compared with what this submodule recorded then.
        diff: changedInside === null ? null : { base: since, changed: changedInside },
      },
      gitDirHomes,
    );
    result.files.push(...nested.files.map((file) => ({ ...file, path: prefix(file.path) })));
    result.ledger.push(...nested.ledger.map((entry) => ({ ...entry, path: prefix(entry.path) })));
    result.changed.push(...nested.changed.map(prefix));
  }
  return result;
}

/** Whether a submodule folder is a real folder holding a `.git` (file or folder) of its own. */
function hasGitEntry(folder: string): boolean {
  try {
    if (!lstatSync(folder).isDirectory()) return false;
    const dotGit = lstatSync(path.join(folder, '.git'));
    return dotGit.isFile() || dotGit.isDirectory();
  } catch {
    return false;
  }
}

/** The real path of the git directory git uses in `subRoot` (its `.git` file may name any). */
async function findGitDir(subRoot: string, env: Record<string, string>): Promise<string | null> {
  const found = await runGit(['rev-parse', '--absolute-git-dir'], { cwd: subRoot, env });
  return found.ok ? realPathOrNull(found.stdout.toString('utf8').trim()) : null;
}

function realPathOrNull(target: string): string | null {
  try {
    return realpathSync(target);
  } catch {
    return null;
  }
}

function isInside(target: string, folder: string): boolean {
  const relative = path.relative(folder, target);
  const isAbove = relative === '..' || relative.startsWith(`..${path.sep}`);
  return relative !== '' && !isAbove && !path.isAbsolute(relative);
}

/** The commit the enclosing repository recorded for the submodule at `base`, or null when none. */
async function findRecordedCommit(
  root: string,
  folder: string,
  base: string,
  env: Record<string, string>,
): Promise<string | null> {
  // "<commit>:./<path>" is relative to the working directory, as the listing's paths are.
  const recorded = await runGit(['rev-parse', '--verify', '--quiet', `${base}:./${folder}`], {
    cwd: root,
    env,
  });
  return recorded.ok ? recorded.stdout.toString('utf8').trim() : null;
}

/** Tracked files of the submodule changed since `commit`, or null when the clone lacks it. */
async function listChangedSince(
  subRoot: string,
  commit: string,
  env: Record<string, string>,
): Promise<string[] | null> {
  const exists = await runGit(['cat-file', '-e', `${commit}^{commit}`], { cwd: subRoot, env });
  if (!exists.ok) return null;
  return [...(await listChangedFiles(subRoot, commit, env))];
}
