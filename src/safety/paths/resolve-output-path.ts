import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../shared/errors.js';

/** Top-level folders no output may land in: git hooks live in one, oy's own policy in the other. */
const PROTECTED_DIRS = ['.git', '.oy'];
/** Linux's PATH_MAX and NAME_MAX: longer paths cannot be created, so refuse them up front. */
const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;

/**
 * Resolves an output path (`--out`, `--manifest`) that must stay inside the workspace.
 * Relative paths are taken from the workspace root. Refuses `..` escapes, absolute paths outside,
 * any existing ancestor whose real path leads outside, and an existing symlink as the destination.
 */
export function resolveOutputPath(workspaceRoot: string, requested: string, flag: string): string {
  const refuse = (why: string): never => {
    const shown = requested.length > 120 ? `${requested.slice(0, 120)}…` : requested;
    throw new UsageError(`${flag} ${JSON.stringify(shown)} ${why}`, {
      hint: 'give a file path inside the workspace, such as ISSUES.md or reports/audit.sarif',
    });
  };
  if (requested.length === 0) refuse('is empty');
  if (requested.includes('\0')) refuse('contains a NUL byte');
  if (
    requested.length > MAX_PATH_BYTES ||
    requested.split('/').some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES)
  ) {
    refuse('is too long');
  }

  const realRoot = realpathSync(workspaceRoot);
  const target = path.resolve(realRoot, requested);
  const relative = path.relative(realRoot, target);
  if (relative === '') refuse('is the workspace itself');
  if (isOutside(relative)) refuse('is outside the workspace');
  const topDir = relative.split(path.sep)[0] ?? '';
  if (PROTECTED_DIRS.includes(topDir)) refuse(`is inside ${topDir}/, which oy never writes`);

  const destination = lstatOrUndefined(target);
  if (destination?.isSymbolicLink()) refuse('is a symbolic link; oy does not write through links');
  if (destination?.isDirectory()) refuse('is a directory');

  // The nearest existing ancestor's real path decides where the file would really land.
  let ancestor = path.dirname(target);
  while (!lstatOrUndefined(ancestor)) ancestor = path.dirname(ancestor);
  let realAncestor: string;
  try {
    realAncestor = realpathSync(ancestor);
  } catch {
    return refuse('passes through a link that cannot be resolved');
  }
  if (realAncestor !== realRoot && isOutside(path.relative(realRoot, realAncestor))) {
    refuse('passes through a link that leads outside the workspace');
  }
  if (!lstatSync(realAncestor).isDirectory()) refuse('has a parent that is not a directory');
  return path.join(realAncestor, path.relative(ancestor, target));
}

function isOutside(relative: string): boolean {
  return relative === '..' || relative.startsWith('..' + path.sep) || path.isAbsolute(relative);
}

function lstatOrUndefined(filePath: string) {
  try {
    return lstatSync(filePath);
  } catch {
    return undefined;
  }
}
