/**
 * One call's abort signal: the caller's signal plus an idle timeout that restarts whenever data arrives,
 * so a stream that stalls mid-answer fails instead of hanging (the SDK's own timeout stops at the headers).
 */
export class CallSignal {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private hasTimedOut = false;
  private readonly onCallerAbort = () => this.controller.abort();

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    idleTimeoutMs: number,
  ) {
    this.timer = setTimeout(() => {
      this.hasTimedOut = true;
      this.controller.abort();
    }, idleTimeoutMs);
    // A caller that drops the stream without finishing it must not keep the process alive.
    this.timer.unref();
    if (callerSignal?.aborted) this.controller.abort();
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The idle timeout fired (and not the caller). */
  get isTimedOut(): boolean {
    return this.hasTimedOut && !this.isCallerAborted;
  }

  get isCallerAborted(): boolean {
    return this.callerSignal?.aborted === true;
  }

  /** Data arrived: restart the idle timeout. */
  touch(): void {
    if (!this.controller.signal.aborted) this.timer.refresh();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}
