import { availableParallelism } from 'node:os';
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
} from 'node:worker_threads';
import type { AuditScope } from '../scope/audit-scope.js';
import type { TokenEncoding } from '../tokens/token-counter.js';
import type { CollectedFile } from '../types.js';
import type { ScannedFile } from './scanned-file.js';

/** Files a worker holds at once: enough to keep it busy while the main thread scans one itself. */
export const FILES_IN_FLIGHT = 12;
/** Below this much text a worker's start-up (tokenizer load, about 0.2 s) costs more than it saves. */
export const MIN_BYTES_FOR_WORKERS = 8 * 1024 * 1024;

/** What every worker needs to scan as the main thread does. */
export interface ScanSettings {
  encoding: TokenEncoding;
  budgetTokens: number;
  /** The scope whose `model` files are counted exactly; absent, every file is (`ScanTools.needsExactTokens`). */
  exactScope?: AuditScope;
}

export interface ScanRequest {
  id: number;
  file: CollectedFile;
}

export type ScanFailure = { reason: 'redaction' | 'scan'; message: string };
export type ScanReply = { id: number; scanned: ScannedFile } | { id: number; failure: ScanFailure };

interface Pending {
  file: CollectedFile;
  resolve: (outcome: ScannedFile | ScanFailure | undefined) => void;
  slot: Slot;
}

interface Slot {
  worker: Worker;
  /** Where the worker's replies arrive; read synchronously too (see `scan`). */
  replies: MessagePort;
  inFlight: number;
  isDead: boolean;
}

/**
 * Scan worker threads beside the main thread. The main thread keeps reading and scans a file
 * itself whenever every worker is full, so both cores stay busy without a scheduler. A worker
 * that dies hands its files back as `undefined`, and the caller scans them in-process: nothing
 * is lost and nothing unredacted escapes.
 */
export class ScanPool {
  /** Started by the first file a worker is offered, so a run that reads nothing new starts none. */
  private slots: Slot[] | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private scannedByWorkers = 0;

  constructor(
    private readonly count: number,
    private readonly settings: ScanSettings,
  ) {}

  /** Starts the workers now, if they have not started; they also start with the first file offered. */
  start(): void {
    this.slots ??= this.spawn();
  }

  private spawn(): Slot[] {
    const url = new URL('./scan-worker.js', import.meta.url);
    return Array.from({ length: this.count }, () => {
      const { port1: replies, port2 } = new MessageChannel();
      const slot: Slot = {
        worker: new Worker(url, {
          workerData: { ...this.settings, replies: port2 },
          transferList: [port2],
        }),
        replies,
        inFlight: 0,
        isDead: false,
      };
      replies.on('message', (reply: ScanReply) => this.settle(reply));
      slot.worker.on('error', () => this.bury(slot));
      slot.worker.on('exit', () => this.bury(slot));
      // Idle workers must not keep the process alive once the scan is done.
      slot.worker.unref();
      replies.unref();
      return slot;
    });
  }

  /** How many workers to start: one per spare core, none for a small tree. */
  static chooseWorkers(totalBytes: number, requested: number | 'auto'): number {
    if (requested !== 'auto') return requested;
    if (totalBytes < MIN_BYTES_FOR_WORKERS) return 0;
    return Math.max(0, Math.min(availableParallelism() - 1, 3));
  }

  /** A worker's outcome for the file, or `undefined` when every worker is full (or dead): scan it here. */
  scan(file: CollectedFile): Promise<ScannedFile | ScanFailure | undefined> | undefined {
    // The main thread reads synchronously and scans what the workers cannot take, so replies
    // waiting for an event-loop turn would leave the workers idle: collect them now.
    const slots = (this.slots ??= this.spawn());
    for (const slot of slots) this.drain(slot);
    const slot = slots
      .filter((candidate) => !candidate.isDead && candidate.inFlight < FILES_IN_FLIGHT)
      .sort((a, b) => a.inFlight - b.inFlight)[0];
    if (!slot) return undefined;
    const id = this.nextId++;
    // A worker holding files keeps the process alive; an idle one must not (see `spawn`).
    if (slot.inFlight++ === 0) slot.replies.ref();
    return new Promise((resolve) => {
      this.pending.set(id, { file, resolve, slot });
      slot.worker.postMessage({ id, file } satisfies ScanRequest);
    });
  }

  /** How many files the workers have scanned so far. */
  get filesScanned(): number {
    return this.scannedByWorkers;
  }

  async close(): Promise<void> {
    await Promise.all(
      (this.slots ?? []).map(async (slot) => {
        slot.replies.close();
        await slot.worker.terminate();
      }),
    );
  }

  private settle(reply: ScanReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    this.scannedByWorkers++;
    if (--pending.slot.inFlight === 0) pending.slot.replies.unref();
    pending.resolve('scanned' in reply ? reply.scanned : reply.failure);
  }

  private drain(slot: Slot): void {
    for (let received = receiveMessageOnPort(slot.replies); received !== undefined;) {
      this.settle(received.message as ScanReply);
      received = receiveMessageOnPort(slot.replies);
    }
  }

  private bury(slot: Slot): void {
    if (slot.isDead) return;
    slot.isDead = true;
    slot.replies.close();
    for (const [id, pending] of this.pending) {
      if (pending.slot !== slot) continue;
      this.pending.delete(id);
      pending.resolve(undefined);
    }
  }
}
