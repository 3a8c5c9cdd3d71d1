import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/index.js';
import { guardedFetch, type LookupAll } from '../../../src/safety/network/index.js';
import { startCountingServer, type CountingServer } from './loopback-servers.js';

// The target every refused case would reach if the guard failed open: 127.0.0.1.
// The relay stands in for a public host: it listens on 127.0.0.2, the one address the
// test-only hook lets through, so only what it redirects to is under test.
const RELAY_ADDRESS = '127.0.0.2';
const PUBLIC_LOOKING = 'docs.public.example';

let target: CountingServer;
let relay: CountingServer;

// Strict fake DNS: an unknown name fails the test instead of reaching the real resolver.
const DNS: Record<string, string[]> = {
  [PUBLIC_LOOKING]: [RELAY_ADDRESS],
  'loopback.example': ['127.0.0.1'],
  'loopback6.example': ['::1'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
  'private.example': ['10.1.2.3'],
  'mixed.example': ['93.184.215.14', '192.168.0.10'],
  'mixed-reversed.example': ['192.168.0.10', '93.184.215.14'],
  'mixed-relay.example': [RELAY_ADDRESS, '127.0.0.1'],
};
const fakeLookup: LookupAll = (hostname) => {
  const addresses = DNS[hostname];
  if (addresses === undefined) throw new Error(`unexpected lookup of ${hostname}`);
  return Promise.resolve(
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  );
};

function fetchGuarded(url: string, lookup: LookupAll | 'real resolver' = fakeLookup) {
  return guardedFetch(url, {
    redact: (text) => createRedactor().redact(text),
    allowAddress: (address) => address === RELAY_ADDRESS,
    timeoutMs: 5_000,
    ...(lookup === 'real resolver' ? {} : { lookup }),
  });
}

/** [what it is, the URL; `T` is the target's port, `R` the relay's]. */
const DIRECT_CASES: [string, string][] = [
  ['loopback dotted', 'http://127.0.0.1:T/'],
  ['loopback decimal', 'http://2130706433:T/'],
  ['loopback octal', 'http://0177.0.0.1:T/'],
  ['loopback octal whole', 'http://017700000001:T/'],
  ['loopback hex short', 'http://0x7f.1:T/'],
  ['loopback hex whole', 'http://0x7f000001:T/'],
  ['loopback hex dotted', 'http://0x7f.0x0.0x0.0x1:T/'],
  ['loopback short', 'http://127.1:T/'],
  ['loopback three parts', 'http://127.0.1:T/'],
  ['loopback zero padded', 'http://127.000.000.001:T/'],
  ['loopback elsewhere in 127/8', 'http://127.255.0.9:T/'],
  ['unspecified 0.0.0.0', 'http://0.0.0.0:T/'],
  ['unspecified 0', 'http://0:T/'],
  ['0/8', 'http://0.1.2.3:T/'],
  ['IPv6 loopback', 'http://[::1]:T/'],
  ['IPv6 unspecified', 'http://[::]:T/'],
  ['IPv4-mapped dotted', 'http://[::ffff:127.0.0.1]:T/'],
  ['IPv4-mapped hex', 'http://[::ffff:7f00:1]:T/'],
  ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]:T/'],
  ['IPv4-translated loopback', 'http://[::ffff:0:7f00:1]:T/'],
  ['IPv4-compatible loopback', 'http://[::127.0.0.1]:T/'],
  ['IPv4-compatible public', 'http://[::8.8.8.8]:T/'],
  ['6to4 of loopback', 'http://[2002:7f00:1::1]:T/'],
  ['6to4 of 10/8', 'http://[2002:a00:1::1]:T/'],
  ['NAT64 of loopback', 'http://[64:ff9b::127.0.0.1]:T/'],
  ['NAT64 of 192.168/16', 'http://[64:ff9b::c0a8:101]:T/'],
  ['NAT64 local use', 'http://[64:ff9b:1::808:808]:T/'],
  ['Teredo client loopback', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:T/'],
  ['Teredo server private', 'http://[2001:0:a00:1:8000:63bf:f7f7:f7f7]:T/'],
  ['metadata', 'http://169.254.169.254/latest/meta-data/'],
  ['link-local', 'http://169.254.1.1:T/'],
  ['10/8', 'http://10.0.0.1:T/'],
  ['172.16/12 low', 'http://172.16.0.1:T/'],
  ['172.16/12 high', 'http://172.31.255.254:T/'],
  ['192.168/16', 'http://192.168.1.1:T/'],
  ['CGNAT 100.64/10', 'http://100.64.0.1:T/'],
  ['CGNAT top', 'http://100.127.255.254:T/'],
  ['benchmarking 198.18/15', 'http://198.19.0.1:T/'],
  ['reserved 240/4', 'http://240.0.0.1:T/'],
  ['multicast', 'http://224.0.0.1:T/'],
  ['broadcast', 'http://255.255.255.255:T/'],
  ['unique local fc00::', 'http://[fc00::1]:T/'],
  ['unique local fd00::', 'http://[fd12:3456::1]:T/'],
  ['link-local fe80::', 'http://[fe80::1]:T/'],
  ['site-local fec0::', 'http://[fec0::1]:T/'],
  ['IPv6 multicast', 'http://[ff02::1]:T/'],
  ['name resolving to loopback', 'http://loopback.example:T/'],
  ['name resolving to ::1', 'http://loopback6.example:T/'],
  ['name resolving to mapped loopback', 'http://mapped.example:T/'],
  ['name resolving to metadata', 'http://metadata.example/'],
  ['name resolving to 10/8', 'http://private.example:T/'],
  ['name resolving public then private', 'http://mixed.example:T/'],
  ['name resolving private then public', 'http://mixed-reversed.example:T/'],
  ['name resolving allowed then loopback', 'http://mixed-relay.example:T/'],
];

/** Redirect targets served by the public-looking relay; each must be refused. */
const REDIRECT_CASES: [string, string][] = [
  ['redirect to loopback', 'http://127.0.0.1:T/'],
  ['redirect to loopback decimal', 'http://2130706433:T/'],
  ['redirect to mapped loopback', 'http://[::ffff:7f00:1]:T/'],
  ['redirect to name resolving to loopback', 'http://loopback.example:T/'],
  ['redirect to metadata', 'http://169.254.169.254/latest/meta-data/'],
  ['redirect to file:', 'file:///etc/passwd'],
  ['redirect with credentials', 'http://user:pass@loopback.example:T/'],
];

describe('SSRF matrix', () => {
  beforeAll(async () => {
    target = await startCountingServer('127.0.0.1');
    relay = await startCountingServer(RELAY_ADDRESS, (request, response) => {
      const url = new URL(request.url ?? '/', 'http://relay');
      const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
      if (url.pathname === '/to') {
        response.writeHead(302, { location: url.searchParams.get('location') ?? '/' }).end();
      } else if (hop !== null) {
        const next = Number(hop[1]) + 1;
        const end = Number(url.searchParams.get('end'));
        if (next > end) response.end(`end of chain at ${hop[1]}`);
        else response.writeHead(302, { location: `/hop/${next}?end=${end}` }).end();
      } else {
        response.end('relay');
      }
    });
    const total = DIRECT_CASES.length + REDIRECT_CASES.length + 2;
    console.log(`SSRF matrix: ${total} cases`);
  });

  afterAll(async () => {
    await target.close();
    await relay.close();
  });

  const withPorts = (url: string) =>
    url.replace(/:T\//, `:${target.port}/`).replace(/:R\//, `:${relay.port}/`);

  it.each(DIRECT_CASES)('refuses %s', async (_name, url) => {
    const result = await fetchGuarded(withPorts(url));
    expect(result).toMatchObject({ ok: false, kind: 'refused' });
    expect(target.hits()).toBe(0);
  });

  it.each(REDIRECT_CASES)('refuses a public-looking URL that answers with a %s', async (_n, to) => {
    const before = relay.hitsOn('/to');
    const start = `http://${PUBLIC_LOOKING}:${relay.port}/to?location=${encodeURIComponent(withPorts(to))}`;
    const result = await fetchGuarded(start);
    expect(result).toMatchObject({ ok: false, kind: 'refused' });
    expect(relay.hitsOn('/to')).toBe(before + 1); // the first hop really went out
    expect(target.hits()).toBe(0);
  });

  it('refuses localhost resolved by the real resolver', async () => {
    const result = await fetchGuarded(`http://localhost:${target.port}/`, 'real resolver');
    expect(result).toMatchObject({ ok: false, kind: 'refused' });
    expect(target.hits()).toBe(0);
  });

  it('refuses a redirect chain of 11 and follows one of 10', async () => {
    const chain = (end: number) => `http://${PUBLIC_LOOKING}:${relay.port}/hop/0?end=${end}`;
    const eleven = await fetchGuarded(chain(11));
    expect(eleven).toMatchObject({ ok: false, kind: 'refused', reason: 'more than 10 redirects' });
    expect(relay.hitsOn('/hop/10')).toBe(1);
    expect(relay.hitsOn('/hop/11')).toBe(0); // the 11th redirect was never followed

    const ten = await fetchGuarded(chain(10));
    expect(ten).toMatchObject({ ok: true, status: 200, body: 'end of chain at 10' });
    expect(relay.hitsOn('/hop/10')).toBe(2);
    expect(target.hits()).toBe(0);
  });

  it('lets the test hook through only the relay address (sanity check of the harness)', async () => {
    const result = await fetchGuarded(`http://${PUBLIC_LOOKING}:${relay.port}/`);
    expect(result).toMatchObject({ ok: true, status: 200, body: 'relay' });
  });
});
