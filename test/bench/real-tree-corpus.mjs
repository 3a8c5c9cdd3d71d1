// Builds the "real tree" corpus: whole real projects of several languages, kept in their own
// layouts (their tests, docs, fixtures and data where they have them), about 15,000 files.
// Deterministic on one machine: sorted selection and fixed caps. Nothing is downloaded.
// Usage alone: node test/bench/real-tree-corpus.mjs <dir>   (prints the corpus root)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { renameSkippedDirs } from './bench-corpus.mjs';

/** Whole npm packages from the installed node_modules, in sorted order, up to this many files. */
const MAX_PACKAGE_FILES = 6500;
/** The Google Cloud SDK's vendored Python libraries (botocore, kubernetes, pygments...). */
const GCLOUD_THIRD_PARTY = '/usr/lib/google-cloud-sdk/lib/third_party';
/** A JDK's own Java sources; the first that exists is used. */
const JDK_SOURCES = [
  '/usr/lib/jvm/temurin-25-jdk-amd64/lib/src.zip',
  '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip',
];
const JDK_MODULE = 'java.base';

/** Builds `<workDir>/real-tree` once; returns its root and what each source gave. */
export function buildRealTreeCorpus(projectRoot, workDir) {
  const corpus = path.join(workDir, 'real-tree');
  const summary = [];
  if (existsSync(corpus)) return { corpus, summary };
  mkdirSync(corpus, { recursive: true });
  summary.push({ source: 'npm packages', files: copyPackages(projectRoot, corpus) });
  if (existsSync(GCLOUD_THIRD_PARTY)) {
    const target = path.join(corpus, 'python');
    // Compiled bytecode is build output, not the project.
    cpSync(GCLOUD_THIRD_PARTY, target, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !source.endsWith('.pyc') && path.basename(source) !== '__pycache__',
    });
    renameSkippedDirs(target);
    summary.push({ source: 'python', files: countFiles(target) });
  }
  const zip = JDK_SOURCES.find((candidate) => existsSync(candidate));
  if (zip) {
    const target = path.join(corpus, 'java');
    mkdirSync(target);
    execFileSync('unzip', ['-q', zip, `${JDK_MODULE}/*`, '-d', target]);
    summary.push({ source: 'java', files: countFiles(target) });
  }
  return { corpus, summary };
}

/** Copies whole packages (a scope's packages one by one) until the next would pass the cap. */
function copyPackages(projectRoot, corpus) {
  const modules = realpathSync(path.join(projectRoot, 'node_modules'));
  const packages = [];
  for (const name of sortedNames(modules)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@'))
      for (const inner of sortedNames(path.join(modules, name))) packages.push(`${name}/${inner}`);
    else packages.push(name);
  }
  const target = path.join(corpus, 'packages');
  let files = 0;
  for (const name of packages) {
    const source = path.join(modules, name);
    const count = countFiles(source);
    if (files + count > MAX_PACKAGE_FILES) continue;
    cpSync(source, path.join(target, name), { recursive: true, verbatimSymlinks: true });
    files += count;
  }
  renameSkippedDirs(target);
  return files;
}

function sortedNames(dir) {
  return readdirSync(dir).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function countFiles(dir) {
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) files += countFiles(path.join(dir, entry.name));
    else if (entry.isFile()) files += 1;
  }
  return files;
}

if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(import.meta.filename)) {
  const workDir = process.argv[2];
  if (!workDir) {
    console.error('usage: node test/bench/real-tree-corpus.mjs <dir>');
    process.exit(2);
  }
  const projectRoot = path.resolve(import.meta.dirname, '..', '..');
  const { corpus, summary } = buildRealTreeCorpus(projectRoot, path.resolve(workDir));
  for (const item of summary) console.error(`${item.source}: ${item.files} files`);
  console.log(corpus);
}
