import { createHash } from 'node:crypto';

// SHA-256 digests of keys their vendors publish for everyone to use, kept as digests so that no key
// is in the source: the account key of the Azurite and Azure storage emulators (`devstoreaccount1`).
const PUBLISHED_KEY_SHA256: ReadonlyMap<number, ReadonlySet<string>> = new Map([
  [88, new Set(['0011cc25eb4320717494d2703e8cba85743e71b500283c21c8b88147992f9059'])],
]);

/** Whether a value is a key its vendor publishes for local emulators and documentation. */
export function isPublishedExampleKey(value: string): boolean {
  const digests = PUBLISHED_KEY_SHA256.get(value.length);
  return digests !== undefined && digests.has(createHash('sha256').update(value).digest('hex'));
}
