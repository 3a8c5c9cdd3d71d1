import { comparePaths } from '../../shared/files/compare-paths.js';
import type { ScopedFile } from '../scope/record-scanned-files.js';
import type { FileKind } from '../scope/classify-file.js';
import { estimateTokens } from '../tokens/estimate-tokens.js';

/** Where the tokens of a run go, by top-level folder: what narrowing (`--exclude`, `--scope`) would save. */
export interface FolderLoad {
  /** `src/`, or `(root)` for files at the top. */
  folder: string;
  /** Files and tokenizer tokens the model would be sent. */
  files: number;
  tokens: number;
  /**
   * Files left to the deterministic checks by `--scope`, and an estimate of their tokens from
   * their size (`estimateTokens`): they are never counted exactly, since they are never sent.
   */
  deterministicFiles: number;
  deterministicTokens: number;
}

export interface FileLoad {
  path: string;
  kind: FileKind;
  tokens: number;
}

export const ROOT_FOLDER = '(root)';
/** Enough to point at the culprits without burying the plan. */
export const LARGEST_FILES_LISTED = 10;

/** Tokens by top-level folder, the heaviest (model tokens, then deterministic tokens) first. */
export function measureFolderLoads(files: readonly ScopedFile[]): FolderLoad[] {
  const byFolder = new Map<string, FolderLoad>();
  for (const { file, scope } of files) {
    const folder = topFolder(file.path);
    const load = byFolder.get(folder) ?? {
      folder,
      files: 0,
      tokens: 0,
      deterministicFiles: 0,
      deterministicTokens: 0,
    };
    if (scope === 'model') {
      load.files++;
      load.tokens += file.tokens;
    } else {
      load.deterministicFiles++;
      // From the size even when an exact count is cached, so the plan reads the same warm or cold.
      load.deterministicTokens += estimateTokens(file.size);
    }
    byFolder.set(folder, load);
  }
  return [...byFolder.values()].sort(
    (a, b) =>
      b.tokens - a.tokens ||
      b.deterministicTokens - a.deterministicTokens ||
      comparePaths(a.folder, b.folder),
  );
}

/** The files that would cost the model the most tokens. */
export function listLargestFiles(
  files: readonly ScopedFile[],
  count: number = LARGEST_FILES_LISTED,
): FileLoad[] {
  return files
    .filter((item) => item.scope === 'model')
    .map(({ file, kind }) => ({ path: file.path, kind, tokens: file.tokens }))
    .sort((a, b) => b.tokens - a.tokens || comparePaths(a.path, b.path))
    .slice(0, count);
}

function topFolder(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? ROOT_FOLDER : path.slice(0, slash + 1);
}

/** How many files of each kind `--scope` left to the deterministic checks. */
export function countDeterministicByKind(
  files: readonly ScopedFile[],
): Partial<Record<FileKind, number>> {
  const counts: Partial<Record<FileKind, number>> = {};
  for (const { kind, scope } of files)
    if (scope === 'deterministic') counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
