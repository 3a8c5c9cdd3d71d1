import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
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

  const visit = async (dirPath: string): Promise<string[]> => {
    let entries: Dirent<Buffer>[];
    try {
      entries = await readdir(path.join(root, dirPath), {
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
      const text = await readSmallTextFile(path.join(root, dirPath, '.gitignore'));
      if (text !== null) gitignore.matcher.addFile(text, gitignore.prefix + dirPath);
    }
    const subdirectories: string[] = [];
    for (const entry of entries) {
      const name = decodeFileName(entry.name);
      const relPath = dirPath === '' ? name.text : `${dirPath}/${name.text}`;
      // git never lists its own directory (or the ".git" file of a linked work tree).
      if (name.text === '.git') {
        ledger.push(skipEntry(entry.isDirectory() ? `${relPath}/` : relPath, 'git-dir', '.git'));
        continue;
      }
      if (!entry.isDirectory()) {
        if (!isIgnored(relPath, false)) {
          files.push({
            path: relPath,
            isValidName: name.isValid,
            isTracked: false,
            isGitlink: false,
          });
        }
        continue;
      }
      if (isIgnored(relPath, true)) continue;
      if (!name.isValid) {
        ledger.push(skipEntry(`${relPath}/`, 'invalid-name', 'name is not valid UTF-8'));
        continue;
      }
      const skip = filter.checkDirectory(relPath);
      if (skip === null) subdirectories.push(relPath);
      else ledger.push(skip);
    }
    return subdirectories;
  };

  const limit = createConcurrencyLimit(WALK_CONCURRENCY);
  const walk = async (dirPath: string): Promise<void> => {
    const subdirectories = await limit(() => visit(dirPath));
    await Promise.all(subdirectories.map(walk));
  };
  await walk('');
  return { files, ledger };
}

const GITIGNORE = Buffer.from('.gitignore');
