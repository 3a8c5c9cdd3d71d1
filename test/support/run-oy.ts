import { spawn } from 'node:child_process';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');
export const OY_BIN = path.join(PROJECT_ROOT, 'bin', 'oy.js');

export interface OyRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `oy` as a user would, with the test's isolated HOME and a clean colour setting. */
export function runOy(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string },
): Promise<OyRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [OY_BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
