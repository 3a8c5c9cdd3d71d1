// Builds the large real-code corpus for the benchmarks: a copy of the installed node_modules.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
} from 'node:fs';
import path from 'node:path';

/** Directories oy skips by default: renamed in the copy so that the code in them is measured too. */
export const SKIPPED_DIR_NAMES = new Set([
  'node_modules',
  'vendor',
  'third_party',
  'dist',
  'build',
  'target',
  'coverage',
  '.next',
  'venv',
  '.venv',
  '__pycache__',
]);

/** Copies node_modules to `<workDir>/corpus/packages` once, renaming default-skipped directories. */
export function buildNodeModulesCorpus(projectRoot, workDir) {
  const corpus = path.join(workDir, 'corpus');
  if (existsSync(corpus)) return corpus;
  mkdirSync(workDir, { recursive: true });
  // node_modules may itself be a symlink (a shared install): copy what it points to.
  cpSync(realpathSync(path.join(projectRoot, 'node_modules')), path.join(corpus, 'packages'), {
    recursive: true,
    verbatimSymlinks: true,
  });
  renameSkippedDirs(corpus);
  return corpus;
}

/** Renames every default-skipped directory under `dir` (`node_modules` to `node_modules_`...). */
export function renameSkippedDirs(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let full = path.join(dir, entry.name);
    if (SKIPPED_DIR_NAMES.has(entry.name)) {
      const renamed = `${full}_`;
      renameSync(full, renamed);
      full = renamed;
    }
    renameSkippedDirs(full);
  }
}

/** Text files under a directory, read into memory, for in-process throughput runs. */
export function readCorpusTexts(root, { maxFileBytes = 1024 * 1024, extensions } = {}) {
  const texts = [];
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile() && (!extensions || extensions.has(path.extname(entry.name)))) {
        const buffer = readFileSync(full);
        if (
          buffer.length === 0 ||
          buffer.length > maxFileBytes ||
          buffer.subarray(0, 8192).includes(0)
        )
          continue;
        texts.push({ path: path.relative(root, full), text: buffer.toString('utf8') });
      }
    }
  };
  visit(root);
  return texts;
}
