import path from 'node:path';

/** PATH with its relative and empty entries removed, for programs oy starts. */
export function keepAbsolutePathEntries(pathVariable: string | undefined): string {
  return (pathVariable ?? '')
    .split(path.delimiter)
    .filter((dir) => path.isAbsolute(dir))
    .join(path.delimiter);
}
