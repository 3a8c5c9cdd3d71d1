import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../shared/errors.js';
import { describeBadPathInput, isOutside, lstatOrUndefined } from './path-input.js';
import { isProtectedName } from './protected-names.js';

/**
 * Resolves an output path (`--out`, `--manifest`) that must stay inside the workspace.
 * Relative paths are taken from the workspace root. Refuses `..` escapes, absolute paths outside,
 * any existing ancestor whose real path leads outside, and an existing symlink as the destination.
 */
export function resolveOutputPath(
  workspaceRoot: string,
  requested: string,
  flag: string,
  options: {
    // `--write-baseline .oy/baseline.json`: the user chose oy's own folder for oy's own file.
    allowOyDir?: boolean;
    /** A good value for this flag, for the hint: `answer.md`. */
    example?: string;
  } = {},
): string {
  const example = options.example ?? 'ISSUES.md or reports/audit.sarif';
  const refuse = (why: string): never => {
    const shown = requested.length > 120 ? `${requested.slice(0, 120)}…` : requested;
    throw new UsageError(`${flag} ${JSON.stringify(shown)} ${why}`, {
      hint: `give a file path inside the workspace, such as ${example}`,
    });
  };
  const bad = describeBadPathInput(requested);
  if (bad) refuse(bad);

  const realRoot = realpathSync(workspaceRoot);
  const target = path.resolve(realRoot, requested);
  const relative = path.relative(realRoot, target);
  if (relative === '') refuse('is the workspace itself');
  if (isOutside(relative)) refuse('is outside the workspace');
  const topDir = relative.split(path.sep)[0] ?? '';
  if (isProtectedName(topDir) && !(options.allowOyDir === true && topDir === '.oy'))
    refuse(`is inside ${topDir}/, which oy never writes`);

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
