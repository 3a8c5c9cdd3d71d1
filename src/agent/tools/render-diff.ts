import { createTwoFilesPatch } from 'diff';

/** Lines of unchanged text around each change, as `git diff` shows. */
const CONTEXT_LINES = 3;

/**
 * A unified diff (with `@@` hunks) of one workspace file, `a/` and `b/` prefixed like git's;
 * `null` on either side means the file does not exist there (`/dev/null`). Empty when nothing changes.
 */
export function renderDiff(
  relativePath: string,
  before: string | null,
  after: string | null,
): string {
  if (before === after) return '';
  const posixPath = relativePath.split('\\').join('/');
  const patch = createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${posixPath}`,
    after === null ? '/dev/null' : `b/${posixPath}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: CONTEXT_LINES },
  );
  // The library opens with a row of `=`; git's format does not have it.
  return patch.replace(/^=+\n/u, '');
}

export interface DiffSummary {
  added: number;
  removed: number;
}

/** How many lines a unified diff adds and removes (file headers not counted). */
export function summarizeDiff(diff: string): DiffSummary {
  let added = 0;
  let removed = 0;
  const lines = diff.split('\n');
  for (const [index, line] of lines.entries()) {
    // A `---`/`+++` pair right before a hunk is a file header, not a changed line starting with `--`.
    if (line.startsWith('--- ') && lines[index + 1]?.startsWith('+++ ')) continue;
    if (line.startsWith('+++ ') && lines[index - 1]?.startsWith('--- ')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}
