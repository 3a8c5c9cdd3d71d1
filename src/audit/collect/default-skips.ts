import path from 'node:path';
import type { SkipReason } from '../types.js';
import { BINARY_EXTENSIONS } from './binary-extensions.js';

/** Directories never reviewed, at any depth: tooling, dependencies, build output. */
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

/** The skip a file earns by its name alone (lockfile, `*.min.*`, binary extension), if any. */
export function findNameSkip(
  filePath: string,
): { reason: SkipReason; detail?: string } | undefined {
  const name = path.posix.basename(filePath);
  if (LOCKFILE_NAMES.has(name)) return { reason: 'lockfile' };
  if (MINIFIED_NAME.test(name)) return { reason: 'minified', detail: 'name matches *.min.*' };
  const extension = path.posix.extname(name).toLowerCase();
  if (BINARY_EXTENSIONS.has(extension))
    return { reason: 'binary', detail: `extension ${extension}` };
  return undefined;
}
