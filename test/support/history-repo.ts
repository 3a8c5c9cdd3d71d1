import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A git repository a test writes commit by commit: plain git, never oy's hardened runner. */
export interface HistoryRepo {
  root: string;
  git(...args: string[]): string;
  write(file: string, text: string | Buffer): void;
  remove(file: string): void;
  /** Stages everything and commits; returns the new commit's id. */
  commit(message?: string): string;
  dispose(): void;
}

export function createHistoryRepo(prefix = 'oy-history-'): HistoryRepo {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  const git = (...args: string[]): string =>
    execFileSync(
      'git',
      [
        '-c',
        'user.name=oy-test',
        '-c',
        'user.email=oy@test.invalid',
        '-c',
        'commit.gpgsign=false',
        '-c',
        'core.hooksPath=/dev/null',
        ...args,
      ],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    ).trim();
  git('init', '-q', '-b', 'main');
  let commits = 0;
  return {
    root,
    git,
    write(file, text) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    },
    remove(file) {
      rmSync(path.join(root, file), { force: true });
    },
    commit(message = `commit ${++commits}`) {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function draw(alphabet: string, length: number): string {
  let out = '';
  for (let index = 0; index < length; index++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A fresh AWS access key id and secret access key, drawn at run time (never seeded). */
export function freshAwsKeyPair(): { id: string; secret: string } {
  // Joined from pieces, so this file holds no literal a secret scanner would flag.
  return { id: ['AK', 'IA', draw(BASE32, 16)].join(''), secret: draw(BASE64, 40) };
}

/** A fresh GitHub personal access token. */
export function freshGithubToken(): string {
  return ['gh', 'p_', draw(BASE62, 36)].join('');
}

/** The lines of an AWS credentials file holding the pair. */
export function awsCredentialsText(pair: { id: string; secret: string }): string {
  return `[default]\naws_access_key_id = ${pair.id}\naws_secret_access_key = ${pair.secret}\n`;
}
