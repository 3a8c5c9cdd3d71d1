import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a cache holds; each gets its own key, so an entry of one can never pass for the other's. */
export type CachePurpose = 'scan-cache' | 'map-cache';

/** Why sealed text was not accepted: no seal at all (an older oy, another tool), or one that does not check out. */
export type SealProblem = 'unsealed' | 'mismatch';

const MAC_HEX_LENGTH = 64;
const MAC_LINE = /^[0-9a-f]{64}$/;
const NEWLINE = 0x0a;
/** A state key for runs given none (tests, an unwritable state folder): nothing sealed with it outlives the process. */
const PROCESS_STATE_KEY = randomBytes(32);

/**
 * Seals what oy keeps in its cache folders: an HMAC-SHA256 of the text and its context (the workspace
 * for the scan cache, the key for a map entry) under a key derived from the user's state key for this
 * purpose (HKDF-SHA256), written as the MAC in hex on the first line, then the text. A cache restored
 * from another job or machine, or written by anyone without the state key, does not verify
 * (ARCHITECTURE.md "Sealed caches").
 */
export class CacheSeal {
  private constructor(private readonly key: Buffer) {}

  static derive(stateKey: Uint8Array | undefined, purpose: CachePurpose): CacheSeal {
    const derived = hkdfSync(
      'sha256',
      stateKey ?? PROCESS_STATE_KEY,
      '',
      `oy ${purpose} seal v1`,
      32,
    );
    return new CacheSeal(Buffer.from(derived));
  }

  seal(text: string, context: string): string {
    return `${this.mac(Buffer.from(text), context)}\n${text}`;
  }

  /** The text of a sealed file whose seal checks out for this context, or why not. */
  open(content: Uint8Array, context: string): { text: string } | { problem: SealProblem } {
    const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    const found = bytes.subarray(0, MAC_HEX_LENGTH).toString('latin1');
    if (bytes[MAC_HEX_LENGTH] !== NEWLINE || !MAC_LINE.test(found)) return { problem: 'unsealed' };
    const body = bytes.subarray(MAC_HEX_LENGTH + 1);
    const expected = Buffer.from(this.mac(body, context), 'latin1');
    if (!timingSafeEqual(expected, Buffer.from(found, 'latin1'))) return { problem: 'mismatch' };
    return { text: body.toString('utf8') };
  }

  private mac(body: Uint8Array, context: string): string {
    // The context is a path or a hex key: never a NUL, so it cannot run into the text.
    return createHmac('sha256', this.key).update(context).update('\0').update(body).digest('hex');
  }
}
