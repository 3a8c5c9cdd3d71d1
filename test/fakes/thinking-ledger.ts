import { createHmac, randomBytes } from 'node:crypto';

/**
 * What thinking the fake handed out, so it can check it comes back unchanged, as the services do: each
 * thinking text is signed with a key drawn per server, redacted blocks are random opaque data, and the tool
 * calls of an answer that thought are remembered (a tool loop must send that thinking back before them).
 */
export class ThinkingLedger {
  private readonly key = randomBytes(32);
  private readonly redacted = new Set<string>();
  /** Tool-call id -> how many thinking blocks preceded it in the answer that made it. */
  private readonly thoughtBeforeTool = new Map<string, number>();

  sign(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64');
  }

  isSigned(text: string, signature: unknown): boolean {
    return typeof signature === 'string' && signature === this.sign(text);
  }

  issueRedacted(): string {
    const data = `fake-redacted-${randomBytes(24).toString('base64')}`;
    this.redacted.add(data);
    return data;
  }

  isIssuedRedacted(data: unknown): boolean {
    return typeof data === 'string' && this.redacted.has(data);
  }

  recordToolCalls(ids: string[], thinkingBlocks: number): void {
    if (thinkingBlocks > 0) for (const id of ids) this.thoughtBeforeTool.set(id, thinkingBlocks);
  }

  /** How many thinking blocks the answer that made this tool call started with (0 when it did not think). */
  thinkingBefore(toolCallId: string): number {
    return this.thoughtBeforeTool.get(toolCallId) ?? 0;
  }
}

/** A request the service would refuse: its status and its own error type and message. */
export interface Violation {
  status: number;
  type: string;
  message: string;
  /** OpenAI's `param` and `code`. */
  param?: string;
  code?: string;
}
