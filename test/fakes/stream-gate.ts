/**
 * A test's hand on a streamed answer (in-process fakes only; a script file cannot hold one): each
 * wire event waits for a permit, so a test can let some text out, act (press Esc), then let the rest
 * go and see it never arrive, with no clock involved. `ended` says whether the client hung up first.
 */
export class StreamGate {
  /** Wire events written so far. */
  sent = 0;
  private permits = 0;
  private wake: (() => void) | undefined;
  private resolveEnded!: (outcome: { closedEarly: boolean; sent: number }) => void;
  /** Resolves once the fake stops streaming this answer: at its end, or when the client closed the connection. */
  readonly ended = new Promise<{ closedEarly: boolean; sent: number }>((resolve) => {
    this.resolveEnded = resolve;
  });

  /** Lets `count` more wire events out. */
  allow(count: number): void {
    this.permits += count;
    this.release();
  }

  /** Lets every remaining event out. */
  allowAll(): void {
    this.allow(Number.POSITIVE_INFINITY);
  }

  /** The fake's side: waits for a permit, or until the client has gone (`whenClosed`). */
  async pass(whenClosed: Promise<void>): Promise<void> {
    while (this.permits <= 0) {
      const permitted = new Promise<void>((resolve) => (this.wake = resolve));
      const closed = await Promise.race([permitted.then(() => false), whenClosed.then(() => true)]);
      if (closed) return;
    }
    this.permits -= 1;
    this.sent += 1;
  }

  /** The fake's side: the stream is over. */
  finish(closedEarly: boolean): void {
    this.resolveEnded({ closedEarly, sent: this.sent });
  }

  private release(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
