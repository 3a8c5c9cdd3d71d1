/**
 * The 1-based numbers of the lines of `lines` that none of the `previous` versions holds anywhere:
 * what a commit adds to a file. A line only moved, or repeated from elsewhere in the same file,
 * is not new, so a secret is attributed to the commit that first wrote it. With no previous
 * version (an added file, a root commit) every line is added. Set lookups make this linear in the
 * file's size, where a line diff can grow with the square of the changes (see ARCHITECTURE.md).
 */
export function findAddedLines(
  lines: readonly string[],
  previous: readonly ReadonlySet<string>[],
): number[] {
  const added: number[] = [];
  lines.forEach((line, index) => {
    if (!previous.some((known) => known.has(line))) added.push(index + 1);
  });
  return added;
}
