import { createHash } from 'node:crypto';

// SHA-256 digests of keys and passwords their vendors publish for everyone to copy, kept as digests
// so that no key is in the source, by length: the account key of the Azurite and Azure storage
// emulators (`devstoreaccount1`); the two clear-text passwords of Microsoft's nuget.config reference.
const PUBLISHED_KEY_SHA256: ReadonlyMap<number, ReadonlySet<string>> = new Map([
  [88, new Set(['0011cc25eb4320717494d2703e8cba85743e71b500283c21c8b88147992f9059'])],
  [11, new Set(['dba72c00f41f4e4c435e2491a5e1ce0140c7b5a6a498dc4847396b5e6368970c'])],
  [14, new Set(['a0702bc91d699f600970f4dc4992b13ede1a29d49fa0942dd4bed2b5e4b1016e'])],
]);

/** Whether a value is a key its vendor publishes for local emulators and documentation. */
export function isPublishedExampleKey(value: string): boolean {
  const digests = PUBLISHED_KEY_SHA256.get(value.length);
  return digests !== undefined && digests.has(createHash('sha256').update(value).digest('hex'));
}
