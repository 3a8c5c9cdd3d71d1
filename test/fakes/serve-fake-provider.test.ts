import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/run-oy.js';
import { startFakeServeProcess, type FakeServeProcess } from '../support/serve-fake.js';

interface LoggedRequest {
  method: string;
  path: string;
  protocol: string;
  headers: Record<string, string>;
  body: { messages: Array<{ content: string }> };
}

const dir = mkdtempSync(path.join(tmpdir(), 'oy-serve-fake-'));
let running: FakeServeProcess | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

function writeScript(name: string, content: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

async function postAnthropic(url: string, text: string) {
  const response = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'secret-key-value',
      'anthropic-version': '2023-06-01',
    },
    body: JSON.stringify({
      model: 'claude-haiku-4-5',
      max_tokens: 5,
      messages: [{ role: 'user', content: text }],
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('serve-fake-provider as a process', () => {
  it('serves the script, logs each request as a JSON line without credentials, and exits 0 when all was used', async () => {
    const log = path.join(dir, 'ok.jsonl');
    running = await startFakeServeProcess({
      script: writeScript('ok.json', [{ kind: 'answer', text: 'hello there' }]),
      log,
      models: ['m-one', 'm-two'],
    });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const answer = await postAnthropic(running.url, 'hi');
    expect(answer.status).toBe(200);
    expect(answer.body.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'hello there' }),
    ]);
    const listing = await fetch(`${running.url}/v1/models`, {
      headers: { authorization: 'Bearer k' },
    });
    expect(
      ((await listing.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id),
    ).toEqual(['m-one', 'm-two']);

    const result = await running.stop();
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('2 requests, 1 model calls');
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LoggedRequest);
    expect(lines.map((line) => [line.method, line.path, line.protocol])).toEqual([
      ['POST', '/v1/messages', 'anthropic'],
      ['GET', '/v1/models', 'openai'],
    ]);
    expect(lines[0]!.body.messages[0]?.content).toBe('hi');
    expect(lines[0]!.headers['x-api-key']).toBe('<redacted>');
    expect(readFileSync(log, 'utf8')).not.toContain('secret-key-value');
  });

  it('exits 1 and names unused replies', async () => {
    running = await startFakeServeProcess({
      script: writeScript('unused.json', {
        script: [
          { kind: 'answer', text: 'a' },
          { kind: 'answer', text: 'b' },
        ],
      }),
    });
    await postAnthropic(running.url, 'one');
    const result = await running.stop();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('1 scripted replies were never requested');
  });

  it('exits 1 and names an unexpected call on SIGINT', async () => {
    running = await startFakeServeProcess({ script: writeScript('empty.json', []) });
    expect((await postAnthropic(running.url, 'nobody expects this')).status).toBe(500);
    const result = await running.stop('SIGINT');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/unexpected call: extra anthropic call POST \/v1\/messages/);
  });

  it('serves scripted errors with Retry-After', async () => {
    running = await startFakeServeProcess({
      script: writeScript('429.json', [{ kind: 'error', status: 429, retryAfter: '1' }]),
    });
    const response = await fetch(`${running.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'claude-haiku-4-5',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect((await running.stop()).code).toBe(0);
  });

  it('refuses a bad script file with exit 2', async () => {
    const child: ChildProcessWithoutNullStreams = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/fakes/serve-fake-provider.ts',
        '--script',
        writeScript('bad.json', [{ text: 'x' }]),
      ],
      { cwd: PROJECT_ROOT },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('reply 0 needs "kind"');
  });
});
