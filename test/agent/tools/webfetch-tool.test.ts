import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebfetchTool, webfetchTool } from '../../../src/agent/tools/webfetch-tool.js';
import type { LookupAll } from '../../../src/safety/network/index.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { startCountingServer, type CountingServer } from '../../safety/network/loopback-servers.js';
import { makeToolContext, type TestToolContextOptions } from './make-tool-context.js';

const LOOPBACK = '127.0.0.1';
const NAME = 'docs.public.example';
const THREE_MIB = 3 * 1024 * 1024;

let server: CountingServer;
let root: string;

const lookupToLoopback: LookupAll = (hostname) => {
  if (hostname !== NAME) throw new Error(`unexpected lookup of ${hostname}`);
  return Promise.resolve([{ address: LOOPBACK, family: 4 }]);
};
/** The tool with this test's resolver, and the loopback address let through (the production tool has neither). */
const loopbackWebfetch = createWebfetchTool({
  lookup: lookupToLoopback,
  allowAddress: (address) => address === LOOPBACK,
});

beforeAll(async () => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-webfetch-')));
  server = await startCountingServer(LOOPBACK, (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/page')
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<html><head><script>evil()</script></head><body><h1>Title</h1><p>Some <b>bold</b> text.</p></body></html>',
        );
    else if (url.pathname === '/text')
      response.writeHead(200, { 'content-type': 'text/plain' }).end('plain words');
    else if (url.pathname === '/big')
      response.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(THREE_MIB, 'a'));
    else if (url.pathname === '/image')
      response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50]));
    else if (url.pathname === '/moved') response.writeHead(302, { location: '/page' }).end();
    else if (url.pathname === '/to-loopback')
      response.writeHead(302, { location: `http://${LOOPBACK}:${server.port}/page` }).end();
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function urlFor(pathname: string): string {
  return `http://${NAME}:${server.port}${pathname}`;
}

/** The tool run with the test-only hooks that let exactly the loopback server through. */
async function fetchAllowed(args: Record<string, unknown>, options: TestToolContextOptions = {}) {
  const context = makeToolContext(root, options);
  const result = await loopbackWebfetch.run(args, context);
  return { ...result, context, body: JSON.parse(result.content) as Record<string, unknown> };
}

describe('webfetch tool: refusals (no hooks)', () => {
  it('refuses a loopback URL before connecting: zero hits', async () => {
    const before = server.hits();
    const context = makeToolContext(root);
    for (const url of [
      `http://${LOOPBACK}:${server.port}/page`,
      `http://localhost:${server.port}/page`,
      `http://[::1]:${server.port}/page`,
      `http://2130706433:${server.port}/page`,
    ]) {
      const result = await webfetchTool.run({ url }, context);
      expect(result.ok, url).toBe(false);
      expect(JSON.parse(result.content).error, url).toMatch(/not public|refused|loopback/);
    }
    expect(server.hits()).toBe(before);
  });

  it('refuses a name that resolves to loopback without the test hook: zero hits', async () => {
    const before = server.hits();
    const context = makeToolContext(root);
    const tool = createWebfetchTool({ lookup: lookupToLoopback });
    const result = await tool.run({ url: urlFor('/page') }, context);
    expect(result.ok).toBe(false);
    expect(JSON.parse(result.content).error).toMatch(/refused/);
    expect(server.hits()).toBe(before);
  });

  it('refuses a URL that carries a secret, even where the address is allowed', async () => {
    const before = server.hits();
    const key = createSecretFactory(5).awsAccessKeyId();
    const { ok, content, body, context } = await fetchAllowed({ url: urlFor(`/text?id=${key}`) });
    expect(ok).toBe(false);
    expect(body.error).toMatch(/contains a secret/);
    expect(content).not.toContain(key);
    expect(context.approvals).toEqual([]);
    expect(server.hits()).toBe(before);
  });

  it('refuses other schemes and forbidden headers', async () => {
    const before = server.hits();
    expect((await fetchAllowed({ url: 'file:///etc/passwd' })).body.error).toMatch(
      /only http and https/,
    );
    const auth = await fetchAllowed({
      url: urlFor('/text'),
      headers: { Authorization: 'Bearer x' },
    });
    expect(auth.ok).toBe(false);
    expect(auth.body.error).toMatch(/authorization/i);
    expect(server.hits()).toBe(before);
  });

  it('is denied in ask mode without a terminal, with no preview built for no one', async () => {
    const before = server.hits();
    const { ok, denied, context } = await fetchAllowed({ url: urlFor('/text') }, { mode: 'ask' });
    expect(ok).toBe(false);
    expect(denied?.reason).toMatch(/non-interactive/);
    expect(context.approvals[0]).toEqual({
      tool: 'webfetch',
      toolCallId: 'call_test',
      action: { kind: 'webfetch', tool: 'webfetch', url: urlFor('/text') },
    });
    expect(server.hits()).toBe(before);
  });
});

describe('webfetch tool: with the test-only address hook', () => {
  it('converts HTML to Markdown, dropping scripts', async () => {
    const { ok, body } = await fetchAllowed({ url: urlFor('/page') });
    expect(ok).toBe(true);
    expect(body).toMatchObject({
      status: 200,
      url: urlFor('/page'),
      content_type: 'text/html; charset=utf-8',
      truncated: false,
    });
    expect(body.content).toBe('# Title\n\nSome **bold** text.');
  });

  it('returns plain text as is, and non-2xx statuses as results', async () => {
    expect((await fetchAllowed({ url: urlFor('/text') })).body.content).toBe('plain words');
    expect((await fetchAllowed({ url: urlFor('/missing') })).body).toMatchObject({
      ok: true,
      status: 404,
      content: 'not here',
    });
  });

  it('does a HEAD request without a body', async () => {
    const { body } = await fetchAllowed({ url: urlFor('/page'), method: 'HEAD' });
    expect(body).toMatchObject({ ok: true, status: 200, content: '' });
  });

  it('follows redirects and reports the final URL', async () => {
    const before = server.hitsOn('/page');
    const { body } = await fetchAllowed({ url: urlFor('/moved') });
    expect(body).toMatchObject({ status: 200, url: urlFor('/page') });
    expect(server.hitsOn('/page')).toBe(before + 1);
  });

  it('refuses a redirect to a loopback literal', async () => {
    const before = server.hitsOn('/page');
    const { ok, body } = await fetchAllowed({ url: urlFor('/to-loopback') });
    expect(ok).toBe(false);
    expect(body.error).toMatch(/not public/);
    expect(server.hitsOn('/page')).toBe(before);
  });

  it('cuts the body at the 2 MiB cap and says so', async () => {
    const { ok, body } = await fetchAllowed({ url: urlFor('/big') });
    expect(ok).toBe(true);
    expect(body.truncated).toBe(true);
    expect((body.content as string).length).toBeLessThan(THREE_MIB);
  });

  it('does not show binary content', async () => {
    const { body } = await fetchAllowed({ url: urlFor('/image') });
    expect(body.content).toBe('[image/png content not shown: not text]');
  });

  it('validates timeout_seconds and method', async () => {
    expect((await fetchAllowed({ url: urlFor('/text'), timeout_seconds: 121 })).body.error).toMatch(
      /timeout_seconds/,
    );
    expect((await fetchAllowed({ url: urlFor('/text'), method: 'POST' })).body.error).toMatch(
      /method/,
    );
  });
});
