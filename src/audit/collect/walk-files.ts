import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { LedgerEntry } from '../types.js';
import type { ListedPath } from './collect-types.js';
import type { PathFilter } from './create-path-filter.js';
import { decodeFileName } from '../../shared/files/decode-file-name.js';
import type { GitignoreRules } from '../../shared/ignore/load-outer-ignore-rules.js';
import { createConcurrencyLimit } from './limit-concurrency.js';
import { readSmallTextFile } from '../../shared/files/read-small-text-file.js';
import { skipEntry } from './skip-entry.js';

// Directories read at once: enough to keep the thread pool busy, few enough to bound open handles.
const WALK_CONCURRENCY = 16;

export interface WalkResult {
  /** Every non-directory entry not ignored by git rules (files, symlinks, FIFOs...). */
  files: ListedPath[];
  /** Directories not entered, each recorded once as `dir/`. */
  ledger: LedgerEntry[];
}

/**
 * Walks `root` without git, honouring `.gitignore` files as git does (each relative to its own
 * directory, deeper ones winning). Never follows a symlink; never enters a directory the filter
 * skips, whose name is not UTF-8, or that cannot be read.
 */
export async function walkFiles(
  root: string,
  gitignore: GitignoreRules,
  filter: Pick<PathFilter, 'checkDirectory'>,
): Promise<WalkResult> {
  const files: ListedPath[] = [];
  const ledger: LedgerEntry[] = [];
  const isIgnored = (relPath: string, isDirectory: boolean): boolean =>
    gitignore.matcher.ignores(gitignore.prefix + relPath, isDirectory);

  const rootBytes = Buffer.from(root);
  // A folder is read by its own bytes (`dirBytes`): its text is escaped when it is not UTF-8.
  const visit = async (
    dirPath: string,
    dirBytes: Buffer,
    hasEscapes: boolean,
  ): Promise<Folder[]> => {
    let entries: Dirent<Buffer>[];
    try {
      entries = await readdir(joinBytes(rootBytes, dirBytes), {
        withFileTypes: true,
        encoding: 'buffer',
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      ledger.push(skipEntry(`${dirPath || '.'}/`, 'unreadable', code));
      return [];
    }
    const gitignoreEntry = entries.find((entry) => entry.isFile() && entry.name.equals(GITIGNORE));
    if (gitignoreEntry !== undefined) {
      const text = await readSmallTextFile(joinBytes(joinBytes(rootBytes, dirBytes), GITIGNORE));
      if (text !== null) gitignore.matcher.addFile(text, gitignore.prefix + dirPath);
    }
    const subdirectories: Folder[] = [];
    for (const entry of entries) {
      const name = decodeFileName(entry.name);
      const relPath = dirPath === '' ? name.text : `${dirPath}/${name.text}`;
      const relBytes = joinBytes(dirBytes, entry.name);
      const isValidPath = name.isValid && !hasEscapes;

      // git never lists its own directory (or the ".git" file of a linked work tree).
      if (name.text === '.git') {
        ledger.push(skipEntry(entry.isDirectory() ? `${relPath}/` : relPath, 'git-dir', '.git'));
        continue;
      }
      if (!entry.isDirectory()) {
        if (!isIgnored(relPath, false)) {
          files.push({
            path: relPath,
            isValidName: isValidPath,
            ...(isValidPath ? {} : { nameBytes: relBytes }),
            isTracked: false,
            isGitlink: false,
          });
        }
        continue;
      }
      if (isIgnored(relPath, true)) continue;
      const skip = filter.checkDirectory(relPath);
      if (skip === null)
        subdirectories.push({ path: relPath, bytes: relBytes, hasEscapes: !isValidPath });
      else ledger.push(skip);
    }
    return subdirectories;
  };

  const limit = createConcurrencyLimit(WALK_CONCURRENCY);
  const walk = async (folder: Folder): Promise<void> => {
    const subdirectories = await limit(() => visit(folder.path, folder.bytes, folder.hasEscapes));
    await Promise.all(subdirectories.map(walk));
  };
  await walk({ path: '', bytes: Buffer.alloc(0), hasEscapes: false });
  return { files, ledger };
}

const GITIGNORE = Buffer.from('.gitignore');

/** A folder to read: its path as text (escaped where not UTF-8) and its own bytes. */
interface Folder {
  path: string;
  bytes: Buffer;
  /** Whether some folder on the way has a name that is not UTF-8 (so `path` is escaped). */
  hasEscapes: boolean;
}

function joinBytes(folder: Buffer, name: Buffer): Buffer {
  return folder.length === 0 ? name : Buffer.concat([folder, Buffer.from('/'), name]);
}
