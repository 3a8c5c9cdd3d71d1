import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { signalGroup } from '../shell/signal-group.js';
import { waitForGroupExit } from '../shell/wait-for-group-exit.js';

/** How long a server has to exit once its stdin is closed before its group gets SIGTERM. */
const CLOSE_GRACE_MS = 300;
/** How long after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 1_000;

export interface StdioServerParameters {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  onStderr(chunk: string): void;
}

/** Process groups of servers still running, killed if oy exits without closing them (a second Ctrl-C). */
const liveGroups = new Set<number>();
let isExitHookSet = false;

/**
 * The SDK's stdio framing (ReadBuffer, serializeMessage) over a server started in its own process
 * group, so closing it stops everything it started: a wrapper (`sh -c`, `npx`) and its children too.
 * The SDK's own StdioClientTransport signals only the process it started.
 */
export class StdioGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #params: StdioServerParameters;
  readonly #buffer = new ReadBuffer();
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;

  constructor(params: StdioServerParameters) {
    this.#params = params;
  }

  start(): Promise<void> {
    if (this.#child !== undefined) throw new Error('the MCP server was already started');
    setExitHook();
    const { command, args, env, cwd } = this.#params;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { cwd, env, stdio: 'pipe', detached: true });
      this.#child = child;
      this.#exited = new Promise((done) =>
        child.once('exit', () => {
          // The server is gone; anything it left in its group (still holding the pipes) goes too.
          if (child.pid !== undefined) {
            signalGroup(child.pid, 'SIGKILL');
            liveGroups.delete(child.pid);
          }
          done();
        }),
      );
      child.once('spawn', () => {
        if (child.pid !== undefined) liveGroups.add(child.pid);
        resolve();
      });
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('close', () => {
        this.#child = undefined;
        this.onclose?.();
      });
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stdout.on('error', (error) => this.onerror?.(error));
      child.stdout.on('data', (chunk: Buffer) => this.#read(chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => this.#params.onStderr(chunk));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin) return Promise.reject(new Error('the MCP server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Closes stdin, then signals the whole group: SIGTERM after a grace period, SIGKILL after another;
   * once the server has exited, whatever it left in its group is killed (see start).
   */
  async close(): Promise<void> {
    const child = this.#child;
    const groupId = child?.pid;
    this.#child = undefined;
    this.#buffer.clear();
    if (child === undefined || groupId === undefined) return;
    child.stdin?.end();
    if (!(await settlesWithin(this.#exited, CLOSE_GRACE_MS))) {
      signalGroup(groupId, 'SIGTERM');
      if (!(await settlesWithin(this.#exited, KILL_GRACE_MS))) signalGroup(groupId, 'SIGKILL');
    }
    await this.#exited;
    await waitForGroupExit(groupId);
  }

  #read(chunk: Buffer): void {
    try {
      this.#buffer.append(chunk);
    } catch (error) {
      // Past the SDK's line cap (10 MiB): the server is not speaking the protocol.
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      try {
        const message = this.#buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }
}

function settlesWithin(promise: Promise<void> | undefined, ms: number): Promise<boolean> {
  if (promise === undefined) return Promise.resolve(true);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([promise.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

function setExitHook(): void {
  if (isExitHookSet) return;
  isExitHookSet = true;
  // Synchronous by necessity: an exit handler cannot wait.
  process.on('exit', () => {
    for (const groupId of liveGroups) signalGroup(groupId, 'SIGKILL');
  });
}
