import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { classifyAddress } from './classify-address.js';
import { hostLiteral } from './check-url.js';

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to; `dns.lookup` with `all` by default, injectable for tests. */
export type LookupAll = (
  hostname: string,
) => Promise<readonly { address: string; family: number }[]>;

/**
 * TEST ONLY: lets a listed non-public address through (a loopback test server). Never built
 * from config, flags or tool arguments; the `webfetch` tool must not pass it.
 */
export type AllowAddressForTests = (address: string) => boolean;

export type AddressCheck = { ok: true; checked: CheckedAddress } | { ok: false; reason: string };

export const lookupAll: LookupAll = (hostname) =>
  dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Resolves a URL host and refuses it if ANY address is not public, so a name that resolves to
 * one public and one private address cannot be raced onto the private one. Returns the first
 * address, which the caller must connect to (no second lookup).
 */
export async function resolvePublicAddress(
  hostname: string,
  lookup: LookupAll,
  allowAddress?: AllowAddressForTests,
): Promise<AddressCheck> {
  const literal = hostLiteral(hostname);
  const answers =
    literal === undefined ? await lookup(hostname) : [{ address: literal, family: isIP(literal) }];
  if (answers.length === 0) return { ok: false, reason: `${hostname} resolved to no address` };
  for (const { address } of answers) {
    const verdict = classifyAddress(address);
    if (!verdict.isPublic && allowAddress?.(address) !== true) {
      return {
        ok: false,
        reason: `${hostname} resolves to ${address}, which is not public (${verdict.range})`,
      };
    }
  }
  const first = answers[0];
  const family = first === undefined ? 0 : isIP(first.address);
  if (first === undefined || (family !== 4 && family !== 6)) {
    return { ok: false, reason: `${hostname} resolved to an invalid address` };
  }
  return { ok: true, checked: { address: first.address, family } };
}
