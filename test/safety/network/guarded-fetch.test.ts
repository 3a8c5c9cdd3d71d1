import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  guardedFetch,
  type GuardedFetchOptions,
  type LookupAll,
} from '../../../src/safety/network/index.js';
import { buildCanarySecrets, createRedactor } from '../../../src/safety/redact/index.js';
import { startCountingServer, type CountingServer } from './loopback-servers.js';

// Positive paths need a reachable server; the test-only hook lets exactly 127.0.0.2 through.
const SERVER_ADDRESS = '127.0.0.2';
const NAME = 'site.public.example';
const THREE_MIB = 3 * 1024 * 1024;

let server: CountingServer;
let bystander: CountingServer;

const lookupOnce: LookupAll = (hostname) => {
  if (hostname !== NAME) throw new Error(`unexpected lookup of ${hostname}`);
  return Promise.resolve([{ address: SERVER_ADDRESS, family: 4 }]);
};

function fetchTest(path: string, options: Partial<GuardedFetchOptions> = {}) {
  return guardedFetch(`http://${NAME}:${server.port}${path}`, {
    redact: (text) => createRedactor().redact(text),
    lookup: lookupOnce,
    allowAddress: (address) => address === SERVER_ADDRESS,
    timeoutMs: 5_000,
    ...options,
  });
}

beforeAll(async () => {
  bystander = await startCountingServer('127.0.0.1');
  server = await startCountingServer(SERVER_ADDRESS, (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/big') response.end(Buffer.alloc(THREE_MIB, 'a'));
    else if (url.pathname === '/hang')
      response.flushHeaders(); // headers, then nothing
    else if (url.pathname === '/silent')
      return; // never answers
    else if (url.pathname === '/moved') response.writeHead(303, { location: '/page' }).end();
    else if (url.pathname === '/echo') response.end(JSON.stringify(request.headers));
    else
      response.writeHead(200, { 'content-type': 'text/html', 'x-test': 'yes' }).end('<h1>Hi</h1>');
  });
});

afterAll(async () => {
  await server.close();
  await bystander.close();
});

describe('guardedFetch', () => {
  it('returns status, headers, body and the final URL', async () => {
    const result = await fetchTest('/page');
    expect(result).toEqual({
      ok: true,
      status: 200,
      headers: expect.objectContaining({ 'content-type': 'text/html', 'x-test': 'yes' }),
      body: '<h1>Hi</h1>',
      finalUrl: `http://${NAME}:${server.port}/page`,
      truncated: false,
    });
  });

  it('sends the URL host name as Host while connecting to the checked address', async () => {
    const result = await fetchTest('/echo', { headers: { 'x-custom': 'kept' } });
    expect(result.ok && JSON.parse(result.body)).toMatchObject({
      host: `${NAME}:${server.port}`,
      'x-custom': 'kept',
    });
  });

  it('follows a redirect, checking it, and reports where it ended', async () => {
    const result = await fetchTest('/moved');
    expect(result).toMatchObject({
      ok: true,
      status: 200,
      finalUrl: `http://${NAME}:${server.port}/page`,
    });
  });

  it('caps the body at 2 MiB by default and says so', async () => {
    const result = await fetchTest('/big');
    expect(result.ok && result.body.length).toBe(2 * 1024 * 1024);
    expect(result).toMatchObject({ ok: true, truncated: true });
  });

  it('caps the body at a smaller limit', async () => {
    const result = await fetchTest('/big', { maxBytes: 1000 });
    expect(result).toMatchObject({ ok: true, truncated: true });
    expect(result.ok && result.body).toBe('a'.repeat(1000));
  });

  it('HEAD reads no body', async () => {
    const result = await fetchTest('/big', { method: 'HEAD' });
    expect(result).toMatchObject({ ok: true, status: 200, body: '', truncated: false });
  });

  // A fetch that ignored its deadline would wait on these for ever, and the test time out.
  it.each(['/silent', '/hang'])('times out on %s without throwing', async (path) => {
    const result = await fetchTest(path, { timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, kind: 'timeout' });
  });

  it('counts DNS time against the deadline', async () => {
    const slowLookup: LookupAll = () => new Promise(() => undefined);
    const result = await fetchTest('/page', { lookup: slowLookup, timeoutMs: 100 });
    expect(result).toMatchObject({ ok: false, kind: 'timeout' });
  });

  it('reports cancellation by the caller', async () => {
    const controller = new AbortController();
    const pending = fetchTest('/silent', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ ok: false, kind: 'cancelled' });
  });

  it('turns a failed lookup and a refused connection into results', async () => {
    const failing: LookupAll = () => Promise.reject(new Error('getaddrinfo ENOTFOUND'));
    expect(await fetchTest('/page', { lookup: failing })).toMatchObject({
      ok: false,
      kind: 'failed',
    });
    const closedPort = await startCountingServer(SERVER_ADDRESS);
    const port = closedPort.port;
    await closedPort.close();
    const result = await guardedFetch(`http://${NAME}:${port}/`, {
      redact: (text) => createRedactor().redact(text),
      lookup: lookupOnce,
      allowAddress: (address) => address === SERVER_ADDRESS,
    });
    expect(result).toMatchObject({
      ok: false,
      kind: 'failed',
      reason: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('connects to the checked address: a rebinding resolver is asked once', async () => {
    let calls = 0;
    const rebinding: LookupAll = () => {
      calls += 1;
      const address = calls === 1 ? SERVER_ADDRESS : '127.0.0.1';
      return Promise.resolve([{ address, family: 4 }]);
    };
    const before = server.hits();
    const result = await fetchTest('/page', { lookup: rebinding });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(calls).toBe(1);
    expect(server.hits()).toBe(before + 1);
    expect(bystander.hits()).toBe(0);
  });

  it('refuses forbidden headers before any connection', async () => {
    const before = server.hits();
    for (const headers of [
      { Authorization: 'Bearer x' },
      { cookie: 'a=b' },
      { 'x-a': 'b\r\nHost: evil' },
    ]) {
      expect(await fetchTest('/page', { headers })).toMatchObject({ ok: false, kind: 'refused' });
    }
    expect(server.hits()).toBe(before);
  });

  it('refuses a secret in the URL before any connection', async () => {
    const before = server.hits();
    const token = buildCanarySecrets().find((canary) => canary.rule === 'github-token')?.value;
    expect(token).toBeDefined();
    const result = await fetchTest(`/page?leak=${token ?? ''}`);
    expect(result).toMatchObject({
      ok: false,
      kind: 'refused',
      reason: expect.stringContaining('secret'),
    });
    expect(server.hits()).toBe(before);
  });
});
