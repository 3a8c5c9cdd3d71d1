import path from 'node:path';
import type { ReviewSkip } from '../types.js';

/**
 * Directories not reviewed, at any depth: tooling, dependencies, build output. Their files are
 * still read for committed secrets and count as not reviewed (`.git` excepted: never listed).
 */
export const DEFAULT_SKIP_DIRS: ReadonlySet<string> = new Set([
  '.git',
  'node_modules',
  'vendor',
  'third_party',
  '.venv',
  'venv',
  '__pycache__',
  'dist',
  'build',
  'target',
  'coverage',
  '.next',
]);

/** Dependency lockfiles: machine-written and long, with nothing to review. */
export const LOCKFILE_NAMES: ReadonlySet<string> = new Set([
  'package-lock.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'Cargo.lock',
  'go.sum',
  'poetry.lock',
  'uv.lock',
  'Gemfile.lock',
  'composer.lock',
]);

const MINIFIED_NAME = /\.min\.[^/]/;

/** The first directory of a root-relative file path that is skipped by default, if any. */
export function findDefaultSkipDir(filePath: string): string | undefined {
  const segments = filePath.split('/');
  segments.pop();
  return segments.find((segment) => DEFAULT_SKIP_DIRS.has(segment));
}

/**
 * The review skip a file earns by its name alone (lockfile, `*.min.*`), if any. Binary content
 * is told by content, never by name, so a text file called `logo.png` is read like any other.
 */
export function findNameSkip(filePath: string): ReviewSkip | undefined {
  const name = path.posix.basename(filePath);
  if (LOCKFILE_NAMES.has(name)) return { reason: 'lockfile' };
  if (MINIFIED_NAME.test(name)) return { reason: 'minified', detail: 'name matches *.min.*' };
  return undefined;
}
