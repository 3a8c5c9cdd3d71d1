import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HINT_CORPUS_DIR = fileURLToPath(
  new URL('../../fixtures/hint-corpus/', import.meta.url),
);
export const HINT_APP_DIR = fileURLToPath(new URL('../../fixtures/hint-app/', import.meta.url));

// The marker comment that labels a vulnerable line (`// VULN`, `# VULN` or `<!-- VULN -->`); stripped before indexing, as the hint bench does.
const MARKER = /\s*(?:(?:\/\/|#)\s*VULN|<!--\s*VULN\s*-->)\s*$/;

/** A fixture file as the index sees it: its path under the fixture folder and its text without markers. */
export interface LabelledFixture {
  path: string;
  text: string;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

function readFixture(root: string, prefix: string, file: string): LabelledFixture {
  const text = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.replace(MARKER, ''))
    .join('\n');
  return { path: `${prefix}${path.relative(root, file).split(path.sep).join('/')}`, text };
}

/** Every file of the hint corpus and the vulnerable app, sorted, markers stripped. */
export function readLabelledFixtures(): LabelledFixture[] {
  return [
    ...listFiles(HINT_CORPUS_DIR)
      .sort()
      .map((file) => readFixture(HINT_CORPUS_DIR, 'hint-corpus/', file)),
    ...listFiles(HINT_APP_DIR)
      .filter((file) => path.basename(file) !== 'README.md')
      .sort()
      .map((file) => readFixture(HINT_APP_DIR, 'hint-app/', file)),
  ];
}
