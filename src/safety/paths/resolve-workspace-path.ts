import { lstatSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { followLink } from './follow-link.js';
import { describeBadPathInput, isInsideRoot, isOutside, MAX_PATH_BYTES } from './path-input.js';
import { errorCode, refusePath, type PathRefusal } from './path-refusal.js';
import { findProtectedComponent } from './protected-names.js';

export type PathAccess = 'read' | 'list' | 'search' | 'write';

export interface WorkspacePath {
  ok: true;
  /** Where the tool should operate: every existing component already resolved to its real path. */
  absolutePath: string;
  /** `absolutePath` relative to the workspace's real path; `.` for the root itself. */
  relativePath: string;
}

/**
 * Confines a path a tool was asked to use to the workspace (SECURITY.md "Promises kept by the agent").
 * Never throws: a refusal is a result naming its rule. Backslashes are refused, `%2e` stays literal,
 * writes into any `.git` or `.oy` (nested too, case-folded) are `protected-path`.
 */
export function resolveWorkspacePath(
  root: string,
  requested: string,
  access: PathAccess,
): WorkspacePath | PathRefusal {
  if (typeof requested !== 'string')
    return refusePath('invalid-path', String(requested), 'is not a string');
  try {
    return resolveOrRefuse(root, requested, access);
  } catch (error) {
    return refusePath('invalid-path', requested, `cannot be checked (${errorCode(error)})`);
  }
}

function resolveOrRefuse(
  root: string,
  requested: string,
  access: PathAccess,
): WorkspacePath | PathRefusal {
  const bad = describeBadPathInput(requested);
  if (bad) return refusePath('invalid-path', requested, bad);
  // A model may write Windows paths; on POSIX `..\x` is a plain name, elsewhere an escape. Refuse both readings.
  if (requested.includes('\\'))
    return refusePath('invalid-path', requested, 'contains a backslash; use / to separate folders');

  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return refusePath(
      'invalid-path',
      requested,
      'cannot be checked: the workspace root does not exist',
    );
  }
  const relative = lexicalRelative(root, realRoot, requested);
  if (relative === undefined)
    return refusePath('outside-workspace', requested, 'is outside the workspace');
  const components = relative === '' ? [] : relative.split(path.sep);
  if (access === 'write') {
    if (components.length === 0)
      return refusePath('invalid-path', requested, 'is the workspace itself');
    const protectedName = findProtectedComponent(components);
    if (protectedName) return refuseProtected(requested, protectedName);
  }

  let current = realRoot;
  for (const [index, name] of components.entries()) {
    const next = path.join(current, name);
    const isLast = index === components.length - 1;
    let stats: Stats;
    try {
      stats = lstatSync(next);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT')
        return finish(realRoot, path.join(next, ...components.slice(index + 1)), requested, access);
      return refusePath('invalid-path', requested, `cannot be inspected (${code})`);
    }
    if (stats.isSymbolicLink()) {
      if (access === 'write' && isLast) {
        return refusePath(
          'symlink-write',
          requested,
          'is a symbolic link; tools do not write through links',
        );
      }
      const followed = followLink(next, realRoot, requested);
      if (!followed.ok) return followed;
      current = followed.realPath;
      continue;
    }
    current = next;
    if (!isLast && !stats.isDirectory()) {
      return refusePath(
        'invalid-path',
        requested,
        `goes through ${JSON.stringify(name)}, which is not a folder`,
      );
    }
  }
  return finish(realRoot, current, requested, access);
}

/** The requested path relative to the real root, or undefined when it lies outside. */
function lexicalRelative(root: string, realRoot: string, requested: string): string | undefined {
  // An absolute path may name the root as given or as its real path (macOS /tmp is /private/tmp).
  const bases = path.isAbsolute(requested) ? [realRoot, path.resolve(root)] : [realRoot];
  for (const base of bases) {
    const relative = path.relative(base, path.resolve(base, requested));
    if (!isOutside(relative)) return relative;
  }
  return undefined;
}

/** Last checks on where the path really lands, once every existing component is resolved. */
function finish(
  realRoot: string,
  absolutePath: string,
  requested: string,
  access: PathAccess,
): WorkspacePath | PathRefusal {
  if (!isInsideRoot(realRoot, absolutePath)) {
    return refusePath(
      'symlink-escape',
      requested,
      'passes through a link that leads outside the workspace',
    );
  }
  if (Buffer.byteLength(absolutePath) > MAX_PATH_BYTES)
    return refusePath('invalid-path', requested, 'is too long');
  const relativePath = path.relative(realRoot, absolutePath) || '.';
  let stats: Stats | undefined;
  try {
    stats = lstatSync(absolutePath);
  } catch {
    stats = undefined;
  }
  // FIFOs, sockets and devices block or never end; no file tool has a use for them.
  if (stats && !stats.isFile() && !stats.isDirectory()) {
    return refusePath('invalid-path', requested, 'is not a regular file or folder');
  }
  if (access === 'write') {
    // A link inside the workspace can still lead into .git/ (`hooks -> .git/hooks`).
    const protectedName =
      relativePath === '.' ? undefined : findProtectedComponent(relativePath.split(path.sep));
    if (protectedName) return refuseProtected(requested, protectedName);
    if (relativePath === '.')
      return refusePath('invalid-path', requested, 'is the workspace itself');
    if (stats?.isDirectory()) return refusePath('invalid-path', requested, 'is a folder');
  }
  return { ok: true, absolutePath, relativePath };
}

function refuseProtected(requested: string, name: string): PathRefusal {
  return refusePath(
    'protected-path',
    requested,
    `is inside ${name}/, which tools never write (git hooks and oy policy)`,
  );
}
