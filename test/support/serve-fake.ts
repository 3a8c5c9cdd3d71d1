import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from './run-oy.js';

export interface FakeServeProcess {
  url: string;
  /** Sends the signal and resolves with the exit code and stderr summary. */
  stop(signal?: 'SIGTERM' | 'SIGINT'): Promise<{ code: number | null; stderr: string }>;
}

export interface FakeServeOptions {
  script?: string;
  log?: string;
  models?: string[];
  port?: number;
}

/** Starts `test/fakes/serve-fake-provider.ts` as a real child process and waits for its `listening` line. */
export function startFakeServeProcess(options: FakeServeOptions): Promise<FakeServeProcess> {
  const args = [
    '--import',
    'tsx',
    'test/fakes/serve-fake-provider.ts',
    '--port',
    String(options.port ?? 0),
  ];
  if (options.script) args.push('--script', options.script);
  if (options.log) args.push('--log', options.log);
  if (options.models) args.push('--models', options.models.join(','));
  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    void closed.then((code) =>
      reject(new Error(`fake provider exited early (${code}): ${stderr}`)),
    );
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^listening (\S+)$/m.exec(stdout);
      if (!match) return;
      let isStopped = false;
      resolve({
        url: match[1]!,
        async stop(signal = 'SIGTERM') {
          if (!isStopped) child.kill(signal);
          isStopped = true;
          const code = await closed;
          return { code, stderr };
        },
      });
    });
  });
}
