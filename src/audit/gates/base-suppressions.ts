import path from 'node:path';
import { prepareGitEnvironment } from '../../shared/git/prepare-git-environment.js';
import { runGit } from '../../shared/git/run-git.js';
import { readSmallTextFile } from '../../shared/files/read-small-text-file.js';
import { checkContent } from '../collect/check-content.js';
import { createConcurrencyLimit } from '../collect/limit-concurrency.js';
import { SECRET_SCAN_MAX_BYTES } from '../scan/scan-large-file.js';
import type { ScannedFile } from '../scan/scanned-file.js';
import { ALLOW_MARKER, hashText } from '../scan/scan-text.js';
import { parseBaseline, readBaseline } from './baseline.js';

/** The baselines of a run: the one that suppresses, and what the audited change adds to it. */
export interface Baselines {
  /**
   * Fingerprints that suppress: the `--baseline` file as read, or with `--diff` and a baseline
   * kept in the repository, that file as of `<ref>`. Null without `--baseline`.
   */
  trusted: ReadonlySet<string> | null;
  /** With `--diff`: fingerprints the change's own copy lists and `<ref>`'s does not. They suppress nothing. */
  proposed: ReadonlySet<string>;
}

export interface BaselineInput {
  /** Absolute real path of the workspace. */
  root: string;
  /** `--baseline` as given, relative to the workspace; null without it. */
  baselinePath: string | null;
  /** With `--diff`: the ref as the user wrote it and the commit it names. */
  diff: { ref: string; refCommit: string } | null;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * A pull request cannot vouch for itself: with `--diff`, a baseline inside the git work tree is
 * read as `<ref>` has it (plumbing only, through `runGit`), and the entries the change adds are
 * returned apart. Without `--diff`, or for a baseline outside the repository (the user's own),
 * the file is read as it is.
 */
export async function loadBaselines(input: BaselineInput): Promise<Baselines> {
  if (input.baselinePath === null) return { trusted: null, proposed: new Set() };
  const absolute = path.resolve(input.root, input.baselinePath);
  if (input.diff === null) return { trusted: await readBaseline(absolute), proposed: new Set() };
  const env = await gitEnvironment(input.root, input.env);
  const top = await runGit(['rev-parse', '--show-toplevel'], { cwd: input.root, env });
  const inRepository = top.ok ? path.relative(top.stdout.toString('utf8').trim(), absolute) : null;
  if (inRepository === null || !isInside(inRepository)) {
    return { trusted: await readBaseline(absolute), proposed: new Set() };
  }
  // A top-relative path after the colon: git reads it from the commit's tree, not the work tree.
  const spec = `${input.diff.refCommit}:${inRepository.split(path.sep).join('/')}`;
  const atRef = await readCommittedFile(input.root, spec, env);
  const trusted =
    atRef === null
      ? new Set<string>()
      : parseBaseline(atRef.toString('utf8'), `${input.baselinePath} as of ${input.diff.ref}`);
  // The change's own copy may be gone, new, or a link to anything: it is read only as a plain
  // file, and what it adds is reported, never trusted.
  const ownText = await readSmallTextFile(absolute, BASELINE_MAX_BYTES);
  const own = ownText === null ? new Set<string>() : parseBaseline(ownText, input.baselinePath);
  return { trusted, proposed: new Set([...own].filter((print) => !trusted.has(print))) };
}

// Far above any real baseline (a finding's entry is about 200 bytes), far below what would hurt.
const BASELINE_MAX_BYTES = 64 * 1024 * 1024;

// Files whose base version is read at once: a few git processes, not one per core.
const READ_CONCURRENCY = 4;

/**
 * The `oy:allow` lines (`<line>:<path>`) that the audited change adds: a line whose exact text,
 * marker and secret included, is on no line of the file as of `base`. A new file, or one oy cannot
 * read at the base, adds every such line. Files are read through `runGit` with plumbing alone.
 */
export async function findAddedAllowLines(input: {
  root: string;
  base: string;
  files: readonly ScannedFile[];
  env: Readonly<Record<string, string | undefined>>;
}): Promise<Set<string>> {
  const withAllows = input.files.filter((file) => (file.allowedSecretLines?.length ?? 0) > 0);
  const added = new Set<string>();
  if (withAllows.length === 0) return added;
  const env = await gitEnvironment(input.root, input.env);
  const limit = createConcurrencyLimit(READ_CONCURRENCY);
  await Promise.all(
    withAllows.map((file) =>
      limit(async () => {
        // "<commit>:./<path>" is relative to the working directory, as the workspace's paths are.
        const bytes = await readCommittedFile(input.root, `${input.base}:./${file.path}`, env);
        const before = bytes === null ? new Set<string>() : allowLineDigests(bytes, file.path);
        for (const allowed of file.allowedSecretLines ?? []) {
          if (!before.has(allowed.digest)) added.add(`${allowed.line}:${file.path}`);
        }
      }),
    ),
  );
  return added;
}

/** Digests of the lines with an allow marker, in the text the scan would have read. */
function allowLineDigests(bytes: Buffer, filePath: string): Set<string> {
  const { text } = checkContent(bytes, filePath);
  return new Set(
    text.split('\n').flatMap((line) => (ALLOW_MARKER.test(line) ? [hashText(line)] : [])),
  );
}

/**
 * A blob as a commit holds it, or null when the path is not a file there (absent, a folder, a
 * submodule) or is larger than the secret scan reads.
 */
async function readCommittedFile(
  cwd: string,
  spec: string,
  env: Record<string, string>,
): Promise<Buffer | null> {
  const object = await runGit(['rev-parse', '--verify', '--quiet', spec], { cwd, env });
  if (!object.ok) return null;
  const oid = object.stdout.toString('utf8').trim();
  const kind = await runGit(['cat-file', '-t', oid], { cwd, env });
  if (!kind.ok || kind.stdout.toString('utf8').trim() !== 'blob') return null;
  const size = await runGit(['cat-file', '-s', oid], { cwd, env });
  if (!size.ok || Number(size.stdout.toString('utf8').trim()) > SECRET_SCAN_MAX_BYTES) return null;
  const blob = await runGit(['cat-file', 'blob', oid], { cwd, env });
  return blob.ok ? blob.stdout : null;
}

/** Whether a relative path stays below its base (`..name` is a name, not a step up). */
export function isInside(relative: string): boolean {
  return (
    relative !== '' &&
    relative !== '..' &&
    !relative.startsWith(`..${path.sep}`) &&
    !path.isAbsolute(relative)
  );
}

function gitEnvironment(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Record<string, string>> {
  return prepareGitEnvironment(root, env, {
    homeDir: env.HOME,
    xdgConfigHome: env.XDG_CONFIG_HOME,
  });
}
