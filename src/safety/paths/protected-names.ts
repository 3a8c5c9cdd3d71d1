/** Folders no tool writes into: git hooks live in one, oy's own policy in the other. */
export const PROTECTED_DIRS = ['.git', '.oy'] as const;

/** Characters HFS+ ignores in names and NTFS strips from their end, so `.g\u200Cit` or `.git.` can still mean `.git`. */
const IGNORED_IN_NAMES = /[\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/gu;
const STRIPPED_AT_END = /[. ]+$/u;
/** NTFS 8.3 short names such as `GIT~1` reach `.git` too. */
const SHORT_NAME = /^git~\d+$/u;

/**
 * Whether one path component names a protected folder, as a case-insensitive or
 * Windows file system would read it (`.GIT`, `.git.`, `.g\u200Cit`, `git~1`).
 */
export function isProtectedName(name: string): boolean {
  const folded = name.normalize('NFC').replace(IGNORED_IN_NAMES, '').toLowerCase();
  if (SHORT_NAME.test(folded)) return true;
  const trimmed = folded.replace(STRIPPED_AT_END, '');
  return PROTECTED_DIRS.some((dir) => trimmed === dir);
}

/** The first protected component of a relative path, or undefined. */
export function findProtectedComponent(components: readonly string[]): string | undefined {
  return components.find(isProtectedName);
}
