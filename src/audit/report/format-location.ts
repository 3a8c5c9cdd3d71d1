/** `path:line`, `path:line-endLine`, or the bare path for a whole-file result. */
export function formatLocation(
  path: string,
  line: number | null,
  endLine: number | null = null,
): string {
  if (line === null) return path;
  return endLine !== null && endLine > line ? `${path}:${line}-${endLine}` : `${path}:${line}`;
}
