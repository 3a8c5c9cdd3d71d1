import { OyError, UsageError } from '../../shared/errors.js';
import { decodeFileName } from '../../shared/files/decode-file-name.js';
import { listStatChangedFiles } from '../../shared/git/list-stat-changed-files.js';
import { runGit } from '../../shared/git/run-git.js';
import { splitNul } from '../../shared/git/split-nul.js';

/** The commits a `--diff <ref>` run compares against. */
export interface DiffBase {
  /** The commit `<ref>` names: the baseline is read as of it. */
  refCommit: string;
  /** The merge base of `<ref>` and HEAD: "changed" means changed since here, as a pull request sees it. */
  base: string;
}

/**
 * Resolves `--diff <ref>` to its commit and the merge base with HEAD. Throws UsageError when
 * `ref` does not name a commit.
 */
export async function resolveDiffBase(
  root: string,
  ref: string,
  env: Record<string, string>,
): Promise<DiffBase> {
  // A ref starting with "-" would be read as an option.
  if (ref === '' || ref.startsWith('-') || ref.includes('\0')) {
    throw new UsageError(
      `\`--diff\` needs a git ref such as \`main\` or \`HEAD~3\`, got \`${ref}\``,
    );
  }
  const resolved = await runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
    cwd: root,
    env,
  });
  if (!resolved.ok) {
    throw new UsageError(`\`--diff\` needs a git ref that names a commit, got \`${ref}\``, {
      hint: 'name a branch, tag or commit this clone has (git branch -a lists them); a shallow CI checkout needs it fetched first, such as git fetch origin main then --diff origin/main, or actions/checkout with fetch-depth: 0',
    });
  }
  const refCommit = resolved.stdout.toString('utf8').trim();
  const mergeBase = await runGit(['merge-base', refCommit, 'HEAD'], { cwd: root, env });
  const base = mergeBase.ok ? mergeBase.stdout.toString('utf8').trim() : refCommit;
  return { refCommit, base };
}

/**
 * The tracked paths under `root` that differ between the commit `base` and the work tree:
 * committed since, staged, or changed in the work tree (by stat data, hashing nothing, so a file
 * touched but unchanged counts as changed). A submodule whose recorded commit changed is listed
 * by its path. Untracked files are the caller's to add.
 */
export async function listChangedFiles(
  root: string,
  base: string,
  env: Record<string, string>,
): Promise<Set<string>> {
  // Committed or staged since the base: the index against its tree, no work-tree file read, and
  // for a submodule only the commit it records (no git runs inside it).
  const diff = await runGit(
    [
      'diff-index',
      '--cached',
      '--name-only',
      '-z',
      '--relative',
      '--no-renames',
      '--ignore-submodules=dirty',
      base,
    ],
    { cwd: root, env },
  );
  if (!diff.ok) {
    throw new OyError(
      `git diff against \`${base}\` failed (${diff.reason}): ${diff.stderr.trim()}`,
    );
  }
  // Changed in the work tree: by stat data only, so no clean filter runs.
  const statChanged = await listStatChangedFiles(root, env);
  if (statChanged === null) {
    throw new OyError(`\`--diff\` cannot read the git index of \`${root}\``);
  }
  const changed = new Set(splitNul(diff.stdout).map((name) => decodeFileName(name).text));
  for (const name of statChanged) changed.add(name);
  return changed;
}
