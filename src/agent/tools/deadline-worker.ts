import { Worker } from 'node:worker_threads';

/** A worker that answers one message at a time and is terminated when an answer is late. */
export interface DeadlineWorker {
  /** Posts `message`; rejects with WorkerTimeout (and terminates the worker) past `timeoutMs`. */
  request<Answer>(message: unknown, timeoutMs: number): Promise<Answer>;
  close(): Promise<void>;
}

export class WorkerTimeout extends Error {
  override name = 'WorkerTimeout';
}

/**
 * Runs plain JavaScript `source` in a worker thread, so user-supplied regular expressions
 * (catastrophic backtracking) are stopped by terminating the thread, not by freezing the agent.
 */
export function createDeadlineWorker(source: string, workerData: unknown): DeadlineWorker {
  const worker = new Worker(source, {
    eval: true,
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  let failure: Error | undefined;
  worker.on('error', (error) => {
    failure = error;
  });
  return {
    request<Answer>(message: unknown, timeoutMs: number) {
      if (failure !== undefined) return Promise.reject(failure);
      return new Promise<Answer>((resolve, reject) => {
        const timer = setTimeout(() => {
          cleanup();
          reject(new WorkerTimeout(`the worker took longer than ${timeoutMs} ms`));
          void worker.terminate();
        }, timeoutMs);
        const onMessage = (answer: Answer) => {
          cleanup();
          resolve(answer);
        };
        const onError = (error: Error) => {
          cleanup();
          reject(error);
        };
        const cleanup = () => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onError);
        };
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.postMessage(message);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
