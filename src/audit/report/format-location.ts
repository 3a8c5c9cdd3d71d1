/** `path:line`, `path:line-endLine`, or the bare path for a whole-file result. */
export function formatLocation(
  path: string,
  line: number | null,
  endLine: number | null = null,
): string {
  if (line === null) return path;
  return endLine !== null && endLine > line ? `${path}:${line}-${endLine}` : `${path}:${line}`;
}

/** Characters of a commit id shown beside a place; the JSON and SARIF reports hold the full id. */
export const SHORT_COMMIT_CHARS = 12;

/** A row's place: `formatLocation`, prefixed `<commit>:` (git's `rev:path` form) for one in the history. */
export function formatRowLocation(row: {
  path: string;
  line: number | null;
  endLine: number | null;
  commit?: string;
}): string {
  const place = formatLocation(row.path, row.line, row.endLine);
  return row.commit === undefined ? place : `${row.commit.slice(0, SHORT_COMMIT_CHARS)}:${place}`;
}
