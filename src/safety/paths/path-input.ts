import { lstatSync, type Stats } from 'node:fs';
import path from 'node:path';

/** Linux's PATH_MAX and NAME_MAX: longer paths cannot be created, so refuse them up front. */
export const MAX_PATH_BYTES = 4096;
export const MAX_NAME_BYTES = 255;

/** Why a requested path is unusable before any file system look-up, or undefined when it is usable. */
export function describeBadPathInput(requested: string): string | undefined {
  if (requested.length === 0) return 'is empty';
  if (requested.includes('\0')) return 'contains a NUL byte';
  if (
    Buffer.byteLength(requested) > MAX_PATH_BYTES ||
    requested.split('/').some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES)
  ) {
    return 'is too long';
  }
  return undefined;
}

/** Whether `target` lies at or under `root` (both absolute and already resolved). */
export function isInsideRoot(root: string, target: string): boolean {
  return target === root || !isOutside(path.relative(root, target));
}

/** Whether a `path.relative` result climbs out of its base. */
export function isOutside(relative: string): boolean {
  return relative === '..' || relative.startsWith('..' + path.sep) || path.isAbsolute(relative);
}

export function lstatOrUndefined(filePath: string): Stats | undefined {
  try {
    return lstatSync(filePath);
  } catch {
    return undefined;
  }
}
