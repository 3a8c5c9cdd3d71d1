/** The caller's signal joined with an idle timer, and which of the two ended the request. */
export interface RequestWatch {
  /** Aborts when the caller aborts or the provider goes quiet for too long. */
  readonly signal: AbortSignal;
  readonly isCancelled: boolean;
  readonly isTimedOut: boolean;
  /** Runs one wait on the provider (the response headers, the next stream event) under the idle timer. */
  during<T>(wait: () => Promise<T>): Promise<T>;
  dispose(): void;
}

/**
 * Watches one request. The timer runs only while we wait on the provider, never while the caller
 * is busy with an event, so a long but lively stream is never cut, and a silent one is.
 */
export function watchRequest(
  callerSignal: AbortSignal | undefined,
  idleTimeoutMs: number,
): RequestWatch {
  const timeout = new AbortController();
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout.signal]) : timeout.signal;
  let timer: NodeJS.Timeout | undefined;
  const stopTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    signal,
    get isCancelled() {
      return callerSignal?.aborted ?? false;
    },
    get isTimedOut() {
      return timeout.signal.aborted && !(callerSignal?.aborted ?? false);
    },
    async during(wait) {
      stopTimer();
      timer = setTimeout(() => timeout.abort(new Error('idle timeout')), idleTimeoutMs);
      try {
        return await wait();
      } finally {
        stopTimer();
      }
    },
    dispose: stopTimer,
  };
}
