import ipaddr from 'ipaddr.js';

export interface AddressClass {
  /** True only for a globally routable unicast address (and any IPv4 address it embeds). */
  isPublic: boolean;
  /** ipaddr.js's range name, or one of ours: `invalid`, `ipv4Compatible`, `nat64LocalUse`, `notGlobalUnicast`; embeddings read `6to4>loopback`. */
  range: string;
}

/** The only ipaddr.js range name that means "reachable on the public internet". */
const PUBLIC_RANGE = 'unicast';

// Everything public in IPv6 lives in 2000::/3 (RFC 4291 global unicast); the rest is reserved.
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
// The well-known NAT64 prefix puts the IPv4 address in the last 32 bits (RFC 6052).
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];
// ::/96 minus :: and ::1 is the deprecated IPv4-compatible form; ipaddr.js calls it unicast.
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];

/**
 * Classifies an IP address for `webfetch`: refuses loopback, private, link-local (the metadata
 * address), CGNAT, reserved, multicast and broadcast, and IPv6 forms embedding such an IPv4
 * address. Anything unparseable is not public.
 */
export function classifyAddress(ip: string): AddressClass {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // Only canonical forms arrive from URL parsing and DNS; octal or hex IPv4 text is refused.
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return classifyIpv4(ipaddr.IPv4.parse(text));
  const ipv6 = dottedSuffixToHex(text);
  if (ipv6 === undefined || !ipaddr.IPv6.isValid(ipv6))
    return { isPublic: false, range: 'invalid' };
  return classifyIpv6(ipaddr.IPv6.parse(ipv6));
}

/**
 * Rewrites a dotted IPv4 tail as two hex words, because ipaddr.js reads `::a.b.c.d`
 * (IPv4-compatible) as `::ffff:a.b.c.d` (IPv4-mapped). Undefined for a malformed tail.
 */
function dottedSuffixToHex(text: string): string | undefined {
  const match = /^(.*:)([^:%]*\.[^:%]*)(%.*)?$/.exec(text);
  if (match === null) return text;
  const [, head = '', tail = '', zone = ''] = match;
  if (!ipaddr.IPv4.isValidFourPartDecimal(tail)) return undefined;
  const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(tail).octets;
  return `${head}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}${zone}`;
}

function classifyIpv4(address: ipaddr.IPv4): AddressClass {
  const range = address.range();
  return { isPublic: range === PUBLIC_RANGE, range };
}

function classifyIpv6(address: ipaddr.IPv6): AddressClass {
  const range = address.range();
  const embedded = embeddedIpv4(address, range);
  if (embedded !== undefined) return classifyEmbedding(range, embedded);
  // Local-use NAT64 (64:ff9b:1::/48) translates into a private network by definition.
  if (range === 'rfc6052') return { isPublic: false, range: 'nat64LocalUse' };
  if (range !== PUBLIC_RANGE) return { isPublic: false, range };
  if (address.match(IPV4_COMPATIBLE)) {
    // Deprecated (RFC 4291) and never routable; the embedded address is named for the report.
    const named = classifyEmbedding('ipv4Compatible', [lastIpv4(address)]);
    return { isPublic: false, range: named.range };
  }
  if (!address.match(IPV6_GLOBAL_UNICAST)) return { isPublic: false, range: 'notGlobalUnicast' };
  return { isPublic: true, range };
}

/** The IPv4 addresses an IPv6 address carries, for the forms that tunnel or translate to IPv4. */
function embeddedIpv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] | undefined {
  const words = address.parts;
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d (IPv4-translated)
      return [lastIpv4(address)];
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) ? [lastIpv4(address)] : undefined;
    case '6to4': // 2002:AABB:CCDD::/48
      return [ipv4FromWords(words[1] ?? 0, words[2] ?? 0)];
    case 'teredo': {
      // 2001:0:SERVER:flags:port:CLIENT, the client address stored inverted (RFC 4380).
      const server = ipv4FromWords(words[2] ?? 0, words[3] ?? 0);
      const client = ipv4FromWords(~(words[6] ?? 0) & 0xffff, ~(words[7] ?? 0) & 0xffff);
      return [server, client];
    }
    default:
      return undefined;
  }
}

function classifyEmbedding(range: string, embedded: ipaddr.IPv4[]): AddressClass {
  const refused = embedded.map(classifyIpv4).find((item) => !item.isPublic);
  return refused === undefined
    ? { isPublic: true, range }
    : { isPublic: false, range: `${range}>${refused.range}` };
}

function lastIpv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  return ipv4FromWords(address.parts[6] ?? 0, address.parts[7] ?? 0);
}

function ipv4FromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
