import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';

/** Why a conversion in a child process ended without an answer. */
export class ConversionStopped extends Error {
  override name = 'ConversionStopped';
  constructor(readonly reason: 'deadline' | 'aborted') {
    super(reason === 'deadline' ? 'the conversion passed its deadline' : 'cancelled by the user');
  }
}

// The child's heap: several times a 1 MiB page's DOM, far below what a bomb would grow to.
const CHILD_HEAP_MB = 256;
// Output past this is not Markdown of a capped page but a runaway: stop it.
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/**
 * Runs plain JavaScript `source` in a separate Node process with `args`, feeding it `input` on
 * stdin and answering its stdout. At `timeoutMs`, or when `signal` aborts, the process is
 * killed (SIGKILL) and the promise rejects with ConversionStopped. A process rather than a worker
 * thread: SIGKILL ends it whatever it is doing, and it gets no environment and its own memory.
 */
export function convertInChild(
  source: string,
  args: readonly string[],
  input: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string> {
  if (signal.aborted) return Promise.reject(new ConversionStopped('aborted'));
  // No environment (no credentials) and a neutral folder (never the workspace's node_modules).
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${CHILD_HEAP_MB}`, '-e', source, '--', ...args],
    { cwd: tmpdir(), env: {}, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let isSettled = false;
    const finish = (settle: () => void) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (child.exitCode === null) child.kill('SIGKILL');
      settle();
    };
    const onAbort = () => finish(() => reject(new ConversionStopped('aborted')));
    const timer = setTimeout(
      () => finish(() => reject(new ConversionStopped('deadline'))),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_OUTPUT_BYTES)
        finish(() => reject(new Error('the conversion produced too much output')));
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => finish(() => reject(error)));
    child.on('close', (code) =>
      finish(() =>
        code === 0
          ? resolve(Buffer.concat(chunks).toString('utf8'))
          : reject(new Error(`the conversion process failed (exit ${code}): ${stderr.trim()}`)),
      ),
    );
    // A child that dies early closes stdin: its error is reported by 'close', not here.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
