import { linkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SKIP_DIRS, LOCKFILE_NAMES } from '../../../src/audit/collect/default-skips.js';
import {
  candidatePaths,
  collect,
  envWithoutGit,
  gitInit,
  makeTempDir,
  readPaths,
  removeDir,
  statusOf,
  writeTree,
} from './tree-helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const MAX_FILE_BYTES = 100;

function makeTree(): string {
  const root = makeTempDir();
  dirs.push(root);
  const files: Record<string, string | Buffer> = {
    'src/app.ts': 'export {};\n',
    'src/.env.example': 'TOKEN=\n',
    'src/empty.ts': '',
    'src/big.ts': 'x'.repeat(MAX_FILE_BYTES + 1),
    'src/exactly-max.ts': 'y'.repeat(MAX_FILE_BYTES),
    'web/app.min.js': 'var a=1;',
    'web/style.min.css': 'a{}',
    'assets/logo.png': 'not really a png',
    'assets/Photo.JPG': 'x',
    'bin/tool.exe': 'x',
    'lib/native.so': 'x',
    'lib/mod.wasm': 'x',
    'docs/paper.pdf': 'x',
    'java/App.class': 'x',
    'java/app.jar': 'x',
    'py/mod.pyc': 'x',
    'win/lib.dll': 'x',
    '.env': 'A=1',
    '.env.production': 'A=1',
    'keys/server.key': 'k',
    'keys/id_ed25519': 'k',
    '.npmrc': '//registry/:_authToken=x',
    'infra/terraform.tfstate': '{}',
    // A file named like a default directory is not one.
    'src/build': 'a file called build',
  };
  for (const lockfile of LOCKFILE_NAMES) files[`deps/${lockfile}`] = 'lock';
  for (const dir of DEFAULT_SKIP_DIRS) {
    if (dir !== '.git') files[`pkg/${dir}/inside.ts`] = 'skipped';
  }
  writeTree(root, files);
  symlinkSync('app.ts', path.join(root, 'src/link.ts'));
  symlinkSync('../src', path.join(root, 'web/src-link'));
  // Two names for one file: either may be the one outside the workspace, so neither is read.
  writeFileSync(path.join(root, 'src/twin.ts'), 'export const twin = 1;\n');
  linkSync(path.join(root, 'src/twin.ts'), path.join(root, 'src/hard-link.ts'));
  const outside = makeTempDir();
  dirs.push(outside);
  writeFileSync(path.join(outside, 'credentials'), 'aws_secret_access_key = x\n');
  linkSync(path.join(outside, 'credentials'), path.join(root, 'outside-link.txt'));
  return root;
}

/** Not read at all. */
const EXPECTED_SKIPS: Record<string, string> = {
  'src/empty.ts': 'empty',
  '.env': 'secret-file',
  '.env.production': 'secret-file',
  'keys/server.key': 'secret-file',
  'keys/id_ed25519': 'secret-file',
  '.npmrc': 'secret-file',
  'infra/terraform.tfstate': 'secret-file',
  'src/link.ts': 'symlink',
  'web/src-link': 'symlink',
  'src/hard-link.ts': 'hard-link',
  'src/twin.ts': 'hard-link',
  'outside-link.txt': 'hard-link',
};

/** Read for committed secrets, but not reviewed: the repository caused the skip. */
const EXPECTED_SECRETS_ONLY: Record<string, string> = {
  'src/big.ts': 'too-large',
  'web/app.min.js': 'minified',
  'web/style.min.css': 'minified',
};

describe('default skips', () => {
  for (const mode of ['git', 'walk'] as const) {
    it(`records every path-based skip with its reason (${mode})`, async () => {
      const root = makeTree();
      if (mode === 'git') gitInit(root);
      const env = mode === 'git' ? process.env : envWithoutGit(root);
      const result = await collect(root, { env, maxFileBytes: MAX_FILE_BYTES });
      expect(result.isGitRepo).toBe(mode === 'git');

      for (const [file, reason] of Object.entries(EXPECTED_SKIPS)) {
        expect({ file, status: statusOf(result, file) }).toEqual({
          file,
          status: `skipped(${reason})`,
        });
      }
      for (const [file, reason] of Object.entries(EXPECTED_SECRETS_ONLY)) {
        expect({ file, status: statusOf(result, file) }).toEqual({
          file,
          status: `secrets-only(${reason})`,
        });
      }
      for (const lockfile of LOCKFILE_NAMES) {
        expect(statusOf(result, `deps/${lockfile}`)).toBe('secrets-only(lockfile)');
      }
      for (const dir of DEFAULT_SKIP_DIRS) {
        if (dir === '.git') continue;
        // Both listings enter the folder: each file in it is read for secrets, not reviewed.
        const file = `pkg/${dir}/inside.ts`;
        expect({ file, status: statusOf(result, file) }).toEqual({
          file,
          status: 'secrets-only(default-dir)',
        });
      }
      // A binary name decides nothing: the content does, once read.
      expect(candidatePaths(result)).toEqual([
        'assets/Photo.JPG',
        'assets/logo.png',
        'bin/tool.exe',
        'docs/paper.pdf',
        'java/App.class',
        'java/app.jar',
        'lib/mod.wasm',
        'lib/native.so',
        'py/mod.pyc',
        'src/.env.example',
        'src/app.ts',
        'src/build',
        'src/exactly-max.ts',
        'win/lib.dll',
      ]);
      expect(
        result.candidates.find((candidate) => candidate.path === 'src/big.ts')?.reviewSkip,
      ).toEqual({
        reason: 'too-large',
        detail: `${MAX_FILE_BYTES + 1} bytes, limit ${MAX_FILE_BYTES}`,
      });
      // Nothing is dropped silently: every file is a candidate or has exactly one ledger line.
      const accounted = [...readPaths(result), ...result.ledger.map((entry) => entry.path)];
      expect(new Set(accounted).size).toBe(accounted.length);
    });
  }
});
