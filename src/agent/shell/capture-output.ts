import {
  dropPartialTokenAtEnd,
  dropPartialTokenAtStart,
} from '../../safety/redact/drop-partial-token.js';

/** Most of one stream kept per command: enough for build logs, small next to a tool result cap. */
export const MAX_STREAM_BYTES = 200 * 1024;

const HEAD_BYTES = MAX_STREAM_BYTES / 2;
const TAIL_BYTES = MAX_STREAM_BYTES - HEAD_BYTES;

/** What one captured stream came to: UTF-8 text (lossy) and whether its middle was cut. */
export interface CapturedStream {
  text: string;
  truncated: boolean;
}

/**
 * Keeps the first and the last bytes of a stream, so memory stays bounded whatever the command
 * prints: errors tend to be at the end, and what the command was doing at the start.
 */
export class OutputCapture {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private totalBytes = 0;

  append(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    let rest = chunk;
    if (this.headBytes < HEAD_BYTES) {
      const taken = rest.subarray(0, HEAD_BYTES - this.headBytes);
      this.head.push(taken);
      this.headBytes += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    this.trimTail();
  }

  finish(): CapturedStream {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    const cutBytes = this.totalBytes - head.length - tail.length;
    if (cutBytes === 0)
      return { text: Buffer.concat([head, tail]).toString('utf8'), truncated: false };
    const marker = `\n…[${cutBytes} bytes of output cut; ${this.totalBytes} in all]…\n`;
    // The output is redacted after capture: a secret split by the cut would leave its prefix (or
    // its end) too short to recognise, so the token characters at either edge go too.
    const headText = dropPartialTokenAtEnd(head.toString('utf8'));
    const tailText = dropPartialTokenAtStart(skipContinuationBytes(tail).toString('utf8'));
    return { text: headText + marker + tailText, truncated: true };
  }

  /** Drops whole chunks, then a prefix of the first, until the tail fits its budget. */
  private trimTail(): void {
    while (this.tailBytes > TAIL_BYTES) {
      const first = this.tail[0];
      if (first === undefined) return;
      const excess = this.tailBytes - TAIL_BYTES;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        // Copy, so the rest of a large chunk is not kept alive through a view.
        this.tail[0] = Buffer.from(first.subarray(excess));
        this.tailBytes -= excess;
      }
    }
  }
}

/** The cut can land inside a multi-byte character: start the tail at the next whole one. */
function skipContinuationBytes(buffer: Buffer): Buffer {
  let start = 0;
  while (start < buffer.length && start < 4 && ((buffer[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return buffer.subarray(start);
}
