import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { comparePaths } from '../../../shared/files/compare-paths.js';
import { decodeFileName } from '../../../shared/files/decode-file-name.js';
import type { GitignoreRules } from '../../../shared/ignore/load-outer-ignore-rules.js';
import { readSmallTextFile } from '../../../shared/files/read-small-text-file.js';

/** Said whenever the Read rules hid something, so the model knows a listing or search is not whole. */
export const LEFT_OUT_NOTE =
  'some paths are left out (counted, never named) because Read rules in the user config deny them or need approval';

export type EntryKind = 'dir' | 'file' | 'link' | 'other';

export interface WalkEntry {
  /** Relative to the workspace root, POSIX separators. */
  path: string;
  kind: EntryKind;
  /** 1 for the entries directly under the start folder. */
  depth: number;
}

export interface WalkOptions {
  realRoot: string;
  /** The folder to walk, relative to `realRoot` ('' for the root); already confined. */
  start: string;
  rules: GitignoreRules;
  /** Deepest level yielded; folders at this level are yielded but not entered. */
  maxDepth: number;
  signal?: AbortSignal;
  /** Whether the Read rules let the walk show a path; what it refuses is neither yielded nor entered. */
  canRead?: (relativePath: string, isFolder: boolean) => boolean;
  /** Counts what `canRead` left out (the walk never names it). */
  onLeftOut?: () => void;
}

/**
 * Yields what lies under `start`, depth first, each folder's entries in byte order, honouring
 * `.gitignore` files as git does. Never follows a symbolic link (links are yielded as `link`),
 * never enters `.git`, skips names that are not UTF-8, and skips folders it cannot read or the
 * Read rules refuse (counted through `onLeftOut`, never named).
 */
export async function* walkWorkspace(options: WalkOptions): AsyncGenerator<WalkEntry> {
  yield* walkFolder(options, options.start, 1);
}

async function* walkFolder(
  options: WalkOptions,
  folder: string,
  depth: number,
): AsyncGenerator<WalkEntry> {
  if (isAborted(options)) return;
  const absolute = path.join(options.realRoot, folder);
  let dirents: Dirent<Buffer>[];
  try {
    dirents = await readdir(absolute, { withFileTypes: true, encoding: 'buffer' });
  } catch {
    return;
  }
  const { matcher, prefix } = options.rules;
  if (dirents.some((entry) => entry.isFile() && entry.name.equals(GITIGNORE))) {
    const text = await readSmallTextFile(path.join(absolute, '.gitignore'));
    if (text !== null) matcher.addFile(text, prefix + folder);
  }
  const entries = dirents
    .map((dirent) => ({ dirent, name: decodeFileName(dirent.name) }))
    .filter(({ name }) => name.isValid && !isGitFolder(name.text))
    .map(({ dirent, name }) => ({
      path: folder === '' ? name.text : `${folder}/${name.text}`,
      kind: kindOf(dirent),
    }))
    .filter((entry) => !matcher.ignores(prefix + entry.path, entry.kind === 'dir'))
    .sort((a, b) => comparePaths(a.path, b.path));
  for (const entry of entries) {
    if (isAborted(options)) return;
    if (options.canRead?.(entry.path, entry.kind === 'dir') === false) {
      options.onLeftOut?.();
      continue;
    }
    yield { ...entry, depth };
    if (entry.kind === 'dir' && depth < options.maxDepth)
      yield* walkFolder(options, entry.path, depth + 1);
  }
}

function isAborted(options: WalkOptions): boolean {
  return options.signal?.aborted === true;
}

function kindOf(dirent: Dirent<Buffer>): EntryKind {
  if (dirent.isSymbolicLink()) return 'link';
  if (dirent.isDirectory()) return 'dir';
  if (dirent.isFile()) return 'file';
  return 'other';
}

// git's own folder (any case: case-insensitive file systems map .GIT onto it) holds no project files.
function isGitFolder(name: string): boolean {
  return name.toLowerCase() === '.git';
}

const GITIGNORE = Buffer.from('.gitignore');
