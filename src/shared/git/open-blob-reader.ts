import { OyError } from '../errors.js';
import { isObjectId } from './list-commits.js';
import { GIT_TIMEOUT_MS, startGit, type GitProcess } from './run-git.js';

/** A blob's bytes as stored (no filter or textconv), or why there are none. */
export type BlobContent =
  | { kind: 'blob'; bytes: Buffer }
  /** Larger than the caller's limit: its bytes were read past, never kept. */
  | { kind: 'too-large'; size: number }
  /** Not in the object store (a partial clone, which oy never lets fetch, or a broken repository). */
  | { kind: 'missing' }
  | { kind: 'not-blob'; type: string };

export interface BlobReader {
  /** Requests may be issued without waiting: they are answered in order by one git process. */
  read(id: string, maxBytes: number): Promise<BlobContent>;
  close(): Promise<void>;
}

interface Request {
  id: string;
  maxBytes: number;
  resolve(content: BlobContent): void;
  reject(error: Error): void;
}

interface Body {
  request: Request;
  size: number;
  type: string;
  /** The bytes so far; null while reading past an object not kept. */
  parts: Buffer[] | null;
  /** Bytes still to come, the terminating newline included. */
  remaining: number;
}

// git (before 2.45's GIT_NO_LAZY_FETCH) dies on an object a partial clone lacks, once the fetch
// that oy's hardening refuses has failed; that object is missing, and a new process takes the rest.
const PROMISOR_FAILURE = /could not fetch \S+ from promisor remote/;

/**
 * One long-running `git cat-file --batch`: each object's raw bytes from the object store, with
 * no filter, textconv or driver (those need `--filters` or `--textconv`, never passed). A request
 * unanswered for `GIT_TIMEOUT_MS` kills git and fails every pending request.
 */
export function openBlobReader(cwd: string, env: Record<string, string>): BlobReader {
  const pending: Request[] = [];
  let rest: Buffer = Buffer.alloc(0);
  let body: Body | null = null;
  let failure: Error | null = null;
  let isClosing = false;
  let watchdog: NodeJS.Timeout | undefined;
  let git: GitProcess;

  const fail = (error: Error): void => {
    failure ??= error;
    clearTimeout(watchdog);
    for (const request of pending.splice(0)) request.reject(failure);
    body?.request.reject(failure);
    body = null;
  };
  const armWatchdog = (): void => {
    clearTimeout(watchdog);
    if (pending.length === 0 && body === null) return;
    watchdog = setTimeout(() => {
      git.kill();
      fail(new OyError(`git cat-file said nothing for ${GIT_TIMEOUT_MS / 1000} s`));
    }, GIT_TIMEOUT_MS);
  };

  const finishBody = (current: Body): void => {
    body = null;
    const { request, size, type, parts } = current;
    if (parts === null) {
      request.resolve(type === 'blob' ? { kind: 'too-large', size } : { kind: 'not-blob', type });
      return;
    }
    // The parts end with git's newline after the object.
    request.resolve({ kind: 'blob', bytes: Buffer.concat(parts).subarray(0, size) });
  };

  const readHeader = (line: string): void => {
    const request = pending.shift();
    if (request === undefined) throw new OyError(`git cat-file answered unasked: "${line}"`);
    const [id, type = '', sizeText = ''] = line.split(' ');
    if (id !== request.id) throw new OyError(`git cat-file answered ${id} for ${request.id}`);
    if (type === 'missing' || type === 'ambiguous') {
      request.resolve({ kind: 'missing' });
      return;
    }
    const size = Number(sizeText);
    if (!Number.isSafeInteger(size) || size < 0) throw new OyError(`bad size in "${line}"`);
    const isKept = type === 'blob' && size <= request.maxBytes;
    body = { request, size, type, parts: isKept ? [] : null, remaining: size + 1 };
  };

  const onData = (chunk: Buffer): void => {
    try {
      let data = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
      for (;;) {
        if (body !== null) {
          const taken = Math.min(body.remaining, data.length);
          body.parts?.push(data.subarray(0, taken));
          body.remaining -= taken;
          data = data.subarray(taken);
          if (body.remaining > 0) break;
          finishBody(body);
          continue;
        }
        const newline = data.indexOf(10);
        if (newline === -1) break;
        readHeader(data.subarray(0, newline).toString('latin1'));
        data = data.subarray(newline + 1);
      }
      rest = data.length === 0 ? Buffer.alloc(0) : Buffer.from(data);
      armWatchdog();
    } catch (error) {
      git.kill();
      fail(error as Error);
    }
  };

  const start = (): void => {
    const started = startGit(['cat-file', '--batch'], { cwd, env });
    if (typeof started === 'string') throw new OyError(`cannot run git cat-file: ${started}`);
    const current = started;
    git = current;
    rest = Buffer.alloc(0);
    current.stdout.on('data', onData);
    void current.exited.then((exit) => {
      if (git !== current || failure !== null) return;
      const head = pending[0];
      if (!isClosing && body === null && head && PROMISOR_FAILURE.test(exit.stderr)) {
        pending.shift();
        head.resolve({ kind: 'missing' });
        try {
          start();
        } catch (error) {
          fail(error as Error);
          return;
        }
        for (const request of pending) git.stdin.write(`${request.id}\n`);
        armWatchdog();
        return;
      }
      clearTimeout(watchdog);
      const how = exit.error ?? exit.signal ?? `exit ${String(exit.code)}`;
      fail(new OyError(`git cat-file ended (${how}): ${exit.stderr.trim()}`));
    });
  };
  start();

  return {
    read(id, maxBytes) {
      if (failure !== null) return Promise.reject(failure);
      if (!isObjectId(id)) return Promise.reject(new OyError(`not an object id: "${id}"`));
      return new Promise<BlobContent>((resolve, reject) => {
        pending.push({ id, maxBytes, resolve, reject });
        git.stdin.write(`${id}\n`);
        if (pending.length === 1 && body === null) armWatchdog();
      });
    },
    async close() {
      isClosing = true;
      git.stdin.end();
      await git.exited;
    },
  };
}
