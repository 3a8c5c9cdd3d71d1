import { readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isInsideRoot, lstatOrUndefined } from './path-input.js';
import { errorCode, refusePath, type PathRefusal } from './path-refusal.js';

/** Linux's MAXSYMLINKS: the kernel gives up after this many links in one lookup, and so do we. */
const MAX_LINK_HOPS = 40;

export type FollowedLink = { ok: true; realPath: string } | PathRefusal;

/**
 * Follows the symbolic link at `link` (whose directory is already a real path inside `realRoot`).
 * It must end inside the workspace; a broken link is refused too, as `symlink-escape` when its
 * chain points outside (the target need not exist) and as `invalid-path` otherwise.
 */
export function followLink(link: string, realRoot: string, requested: string): FollowedLink {
  try {
    const realPath = realpathSync.native(link);
    if (!isInsideRoot(realRoot, realPath)) {
      return refusePath(
        'symlink-escape',
        requested,
        'passes through a link that leads outside the workspace',
      );
    }
    return { ok: true, realPath };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP')
      return refusePath('invalid-path', requested, 'passes through a symbolic link loop');
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      return refusePath(
        'invalid-path',
        requested,
        `passes through a link that cannot be resolved (${code})`,
      );
    }
    return classifyBrokenLink(link, realRoot, requested);
  }
}

/** Walks a broken link chain by hand to say whether it points outside, without touching its target. */
function classifyBrokenLink(link: string, realRoot: string, requested: string): PathRefusal {
  const escape = refusePath(
    'symlink-escape',
    requested,
    'passes through a link that points outside the workspace',
  );
  let hop = link;
  for (let hops = 0; hops < MAX_LINK_HOPS; hops += 1) {
    let target: string;
    try {
      target = path.resolve(realpathSync.native(path.dirname(hop)), readlinkSync(hop));
    } catch {
      return escape;
    }
    if (!isInsideRoot(realRoot, target) || !isInsideRoot(realRoot, realAnchor(target)))
      return escape;
    if (!lstatOrUndefined(target)?.isSymbolicLink()) {
      return refusePath('invalid-path', requested, 'passes through a broken symbolic link');
    }
    hop = target;
  }
  return refusePath('invalid-path', requested, 'passes through a symbolic link loop');
}

/** The real path of the nearest existing ancestor of `target`, or `target` itself when none resolves. */
function realAnchor(target: string): string {
  let ancestor = target;
  while (!lstatOrUndefined(ancestor) && path.dirname(ancestor) !== ancestor) {
    ancestor = path.dirname(ancestor);
  }
  try {
    return path.join(realpathSync.native(ancestor), path.relative(ancestor, target));
  } catch {
    return target;
  }
}
