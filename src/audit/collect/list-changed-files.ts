import { OyError, UsageError } from '../../shared/errors.js';
import { decodeFileName } from '../../shared/files/decode-file-name.js';
import { runGit } from '../../shared/git/run-git.js';
import { splitNul } from '../../shared/git/split-nul.js';

/**
 * The tracked paths under `root` that differ between the merge base of `ref` and HEAD and the
 * work tree: committed since `ref`, staged, or changed in the work tree. Untracked files are the
 * caller's to add. Throws UsageError when `ref` does not name a commit.
 */
export async function listChangedFiles(
  root: string,
  ref: string,
  env: Record<string, string>,
): Promise<Set<string>> {
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
    throw new UsageError(`\`--diff\` needs a git ref that names a commit, got \`${ref}\``);
  }
  const commit = resolved.stdout.toString('utf8').trim();
  // "Changed since ref" means since the fork point, as a pull request sees it.
  const mergeBase = await runGit(['merge-base', commit, 'HEAD'], { cwd: root, env });
  const base = mergeBase.ok ? mergeBase.stdout.toString('utf8').trim() : commit;

  const config = await disableFilterDrivers(root, env);
  const diff = await runGit(
    [
      'diff',
      '--name-only',
      '-z',
      '--relative',
      '--no-renames',
      '--no-ext-diff',
      '--no-textconv',
      base,
    ],
    { cwd: root, env, config },
  );
  if (!diff.ok) {
    throw new OyError(`git diff against \`${ref}\` failed (${diff.reason}): ${diff.stderr.trim()}`);
  }
  return new Set(splitNul(diff.stdout).map((name) => decodeFileName(name).text));
}

/**
 * Comparing the work tree hashes changed files through any configured clean filter, a command
 * from the repository's config. Blank every filter driver git knows of, so none runs.
 */
async function disableFilterDrivers(root: string, env: Record<string, string>): Promise<string[]> {
  const listed = await runGit(['config', '-z', '--get-regexp', '^filter\\.'], { cwd: root, env });
  // git config exits 1 when nothing matches.
  if (!listed.ok) return [];
  const drivers = new Set<string>();
  for (const record of splitNul(listed.stdout)) {
    const key = record.toString('utf8').split('\n', 1)[0] ?? '';
    const name = key.slice('filter.'.length, key.lastIndexOf('.'));
    if (name === '') continue;
    // "-c" splits at the first "=", so such a name cannot be overridden.
    if (name.includes('=')) {
      throw new OyError(
        `\`--diff\` cannot run: git filter driver \`${name}\` cannot be disabled safely`,
      );
    }
    drivers.add(name);
  }
  return [...drivers].flatMap((name) => [
    `filter.${name}.clean=`,
    `filter.${name}.smudge=`,
    `filter.${name}.process=`,
    `filter.${name}.required=false`,
  ]);
}
