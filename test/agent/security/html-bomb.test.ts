import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebfetchTool } from '../../../src/agent/tools/webfetch-tool.js';
import {
  htmlToMarkdown,
  MAX_HTML_DEPTH,
  ConversionStopped,
  type LookupAll,
} from '../../../src/safety/network/index.js';
import { htmlToText } from '../../../src/safety/network/html-to-text.js';
import { nestsDeeperThan } from '../../../src/safety/network/measure-html-depth.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { startCountingServer, type CountingServer } from '../../safety/network/loopback-servers.js';
import { makeToolContext } from '../tools/make-tool-context.js';

let cases = 0;
afterAll(() => console.log(`html bomb: ${cases} cases`));

/** Nested `<div>`s filling `bytes`, with a marker in the middle: generated at run time. */
function divBomb(bytes: number): string {
  const depth = Math.floor((bytes - 40) / 11);
  return `<html><body>${'<div>'.repeat(depth)}deep marker${'</div>'.repeat(depth)}</body></html>`;
}
const BOMB_200_KB = divBomb(200 * 1024);
const BOMB_1_MB = divBomb(1024 * 1024);
const noAbort = () => new AbortController().signal;

describe('HTML conversion is bounded', () => {
  it.each([
    ['200 KB', BOMB_200_KB],
    ['1 MB', BOMB_1_MB],
  ])('a %s nested-div bomb comes back as plain text, past the depth cap', async (_size, html) => {
    const result = await htmlToMarkdown(html, { timeoutMs: 20_000, signal: noAbort() });
    expect(result.format).toBe('text');
    expect(result.note).toContain(`more than ${MAX_HTML_DEPTH} deep`);
    expect(result.text).toBe('deep marker');
    cases += 1;
  });

  it('control and deadline: without the depth cap, the converter cannot finish a bomb in time', async () => {
    const result = await htmlToMarkdown(BOMB_200_KB, {
      timeoutMs: 1000,
      signal: noAbort(),
      maxDepth: Number.POSITIVE_INFINITY,
    });
    expect(result.format).toBe('text');
    expect(result.note).toContain('did not finish within the deadline');
    expect(result.text).toBe('deep marker');
    cases += 1;
  });

  it('Ctrl-C during a conversion ends it: the converter is killed, the promise rejects', async () => {
    const controller = new AbortController();
    const converting = htmlToMarkdown(BOMB_1_MB, {
      // Minutes of work and a deadline far away: only the abort can end this.
      timeoutMs: 600_000,
      signal: controller.signal,
      maxDepth: Number.POSITIVE_INFINITY,
      maxChars: Number.POSITIVE_INFINITY,
    });
    setTimeout(() => controller.abort(), 300);
    const outcome = await converting.then(
      () => 'finished',
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(ConversionStopped);
    expect((outcome as ConversionStopped).reason).toBe('aborted');
    cases += 1;
  });

  it('an ordinary page still becomes Markdown in the converter', async () => {
    const result = await htmlToMarkdown('<h2>Usage</h2><p>Run <code>oy</code>.</p>', {
      timeoutMs: 20_000,
      signal: noAbort(),
    });
    expect(result).toEqual({ text: '## Usage\n\nRun `oy`.', format: 'markdown' });
    cases += 1;
  });

  it.each([
    ['a page over the size cap', `<p>${'word '.repeat(300_000)}</p>`, 'too large'],
    ['unclosed tags', `${'<section>'.repeat(MAX_HTML_DEPTH + 1)}x`, 'deep'],
  ])('%s is text', async (_name, html, note) => {
    const result = await htmlToMarkdown(html, { timeoutMs: 20_000, signal: noAbort() });
    expect(result.format).toBe('text');
    expect(result.note).toContain(note);
    cases += 1;
  });

  it('the depth measure and the text fallback are linear scans that handle hostile markup', () => {
    expect(nestsDeeperThan('<div>'.repeat(MAX_HTML_DEPTH), MAX_HTML_DEPTH)).toBe(false);
    expect(nestsDeeperThan('<div>'.repeat(MAX_HTML_DEPTH + 1), MAX_HTML_DEPTH)).toBe(true);
    expect(nestsDeeperThan('<p>'.repeat(10_000), MAX_HTML_DEPTH)).toBe(false);
    expect(nestsDeeperThan('<br/>'.repeat(10_000), MAX_HTML_DEPTH)).toBe(false);
    // Half a megabyte of `<` with no `>` anywhere, and of unterminated comments.
    expect(htmlToText('<a'.repeat(250_000))).toBe('');
    expect(htmlToText(`${'<!--'.repeat(100_000)}x`)).toBe('');
    expect(
      htmlToText(
        '<p>a &amp; b &lt;c&gt; &#65;&#x42;</p><script>evil()</script><style>p{}</style><div>next</div>',
      ),
    ).toBe('a & b <c> AB\n\nnext');
    cases += 5;
  });
});

describe('webfetch of a bomb answers within its deadline', () => {
  const NAME = 'bomb.public.example';
  const LOOPBACK = '127.0.0.1';
  let server: CountingServer;
  let root: string;
  const token = createSecretFactory(Date.now() % 1_000_000_007).githubToken('p');
  const lookup: LookupAll = () => Promise.resolve([{ address: LOOPBACK, family: 4 }]);

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-html-bomb-')));
    server = await startCountingServer(LOOPBACK, (request, response) => {
      const body =
        request.url === '/cut'
          ? // A token across the 2 MiB cut of the body.
            `<p>${' '.repeat(2 * 1024 * 1024 - 3 - 10)}${token} tail</p>`
          : BOMB_1_MB;
      response.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function fetchPage(pathname: string) {
    const context = makeToolContext(root);
    const tool = createWebfetchTool({ lookup, allowAddress: (address) => address === LOOPBACK });
    const url = `http://${NAME}:${server.port}${pathname}`;
    const result = await tool.run({ url, timeout_seconds: 10 }, context);
    return { ...result, body: JSON.parse(result.content) as Record<string, unknown> };
  }

  it('the 1 MB bomb is a tool result with plain text and a note', async () => {
    const { ok, body } = await fetchPage('/bomb');
    expect(ok).toBe(true);
    expect(body.content).toBe('deep marker');
    expect(body.note).toContain('plain text');
    cases += 1;
  });

  it('a body cut at 2 MiB through a token keeps no prefix of it', async () => {
    const { ok, body } = await fetchPage('/cut');
    expect(ok).toBe(true);
    expect(body.truncated).toBe(true);
    expect(JSON.stringify(body)).not.toContain(token.slice(0, 6));
    cases += 1;
  });
});
