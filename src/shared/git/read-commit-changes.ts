import { OyError } from '../errors.js';
import { decodeFileName } from '../files/decode-file-name.js';
import { isObjectId } from './list-commits.js';
import { GIT_TIMEOUT_MS, startGit } from './run-git.js';

/** One path a commit changed, as `diff-tree` reads it from the object store. */
export interface TreeChange {
  /** Relative to the top of the work tree, `/`-separated; lossy (U+FFFD) when not UTF-8. */
  path: string;
  isValidName: boolean;
  /** The commit's side: `100644`, `100755`, `120000` (symlink), `160000` (submodule), `000000` (deleted). */
  mode: string;
  blob: string;
  /** The blob at this path in each parent that held a regular file there; none for an added file. */
  parentBlobs: string[];
}

export interface CommitChanges {
  commit: string;
  changes: TreeChange[];
}

/**
 * Plumbing only: `diff-tree` compares trees in the object store, so no work-tree file, filter,
 * textconv, diff driver or hook is involved. A merge is read combined (`-c`): only the paths whose
 * result differs from every parent, each with every parent's blob. A root commit (or a shallow
 * clone's boundary) is compared with the empty tree.
 */
const DIFF_TREE_ARGS = [
  'diff-tree',
  '--stdin',
  '--always',
  '-r',
  '-c',
  '--root',
  '--raw',
  '-z',
  '--no-abbrev',
  '--no-renames',
  '--no-ext-diff',
  '--no-textconv',
];

const REGULAR_FILE_MODES = new Set(['100644', '100755', '100664']);

/** Whether a tree entry's mode is a regular file (git's old group-writable mode included). */
export function isRegularFileMode(mode: string): boolean {
  return REGULAR_FILE_MODES.has(mode);
}

/**
 * The changes of each commit, in the order given, read from one `diff-tree --stdin` process as
 * its output streams (a long history is never held whole). Throws OyError when git fails or
 * stalls for `GIT_TIMEOUT_MS`.
 */
export async function* readCommitChanges(
  cwd: string,
  env: Record<string, string>,
  commits: readonly string[],
): AsyncGenerator<CommitChanges> {
  if (commits.length === 0) return;
  const git = startGit(DIFF_TREE_ARGS, { cwd, env });
  if (typeof git === 'string') throw new OyError(`cannot run git diff-tree: ${git}`);
  git.stdin.end(`${commits.join('\n')}\n`);
  const parser = createRawParser();
  const chunks = git.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let isDone = false;
  try {
    for (;;) {
      const next = await withStallTimeout(chunks.next(), git.kill);
      if (next.done === true) break;
      yield* parser.push(next.value);
    }
    yield* parser.end();
    isDone = true;
  } finally {
    // Stopped early (the caller's error or a stall): git is not needed any more.
    if (!isDone) {
      git.kill();
      await git.exited;
    }
  }
  const exit = await git.exited;
  if (exit.code !== 0 || exit.error !== undefined) {
    const how = exit.error ?? exit.signal ?? `exit ${String(exit.code)}`;
    throw new OyError(`git diff-tree failed (${how}): ${exit.stderr.trim()}`);
  }
}

/** Resolves as `pending` does, or kills git when it says nothing for `GIT_TIMEOUT_MS`. */
async function withStallTimeout<T>(pending: Promise<T>, kill: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      kill();
      reject(new OyError(`git diff-tree said nothing for ${GIT_TIMEOUT_MS / 1000} s`));
    }, GIT_TIMEOUT_MS);
  });
  try {
    return await Promise.race([pending, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The `-z` raw output as NUL-terminated fields: a commit id alone, or an entry header (starting
 * with `:`, one colon per parent) followed by its path.
 */
function createRawParser() {
  let rest: Buffer = Buffer.alloc(0);
  let current: CommitChanges | null = null;
  let header: string | null = null;

  function* take(field: Buffer): Generator<CommitChanges> {
    if (header !== null) {
      if (current === null) throw malformed('an entry before any commit');
      current.changes.push(parseEntry(header, field));
      header = null;
      return;
    }
    const text = field.toString('latin1');
    if (text.startsWith(':')) {
      header = text;
      return;
    }
    if (!isObjectId(text)) throw malformed(`unexpected field "${text.slice(0, 80)}"`);
    if (current !== null) yield current;
    current = { commit: text, changes: [] };
  }

  return {
    *push(chunk: Buffer): Generator<CommitChanges> {
      const data = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
      let start = 0;
      for (let end = data.indexOf(0, start); end !== -1; end = data.indexOf(0, start)) {
        yield* take(data.subarray(start, end));
        start = end + 1;
      }
      // Copied, so the stream's chunk can be released.
      rest = Buffer.from(data.subarray(start));
    },
    *end(): Generator<CommitChanges> {
      if (rest.length > 0 || header !== null) throw malformed('output ends inside an entry');
      if (current !== null) yield current;
      current = null;
    },
  };
}

/** `:<modes> <ids> <status>` with one colon, one parent mode and one parent id per parent. */
function parseEntry(header: string, pathField: Buffer): TreeChange {
  const parents = header.length - header.replace(/^:+/, '').length;
  const fields = header.slice(parents).split(' ');
  // Each parent's mode, the result's mode, each parent's id, the result's id, the status letters.
  if (fields.length !== 2 * (parents + 1) + 1) throw malformed(`bad entry "${header}"`);
  const modes = fields.slice(0, parents + 1);
  const blobs = fields.slice(parents + 1, 2 * (parents + 1));
  if (!blobs.every(isObjectId)) throw malformed(`bad object id in "${header}"`);
  const name = decodeFileName(pathField);
  return {
    path: name.text,
    isValidName: name.isValid,
    mode: modes[parents] ?? '',
    blob: blobs[parents] ?? '',
    parentBlobs: blobs
      .slice(0, parents)
      .filter((blob, index) => isRegularFileMode(modes[index] ?? '') && !isNullId(blob)),
  };
}

/** The all-zero id git prints for "no object". */
export function isNullId(id: string): boolean {
  return /^0+$/.test(id);
}

function malformed(detail: string): OyError {
  return new OyError(`git diff-tree printed something oy cannot read: ${detail}`);
}
