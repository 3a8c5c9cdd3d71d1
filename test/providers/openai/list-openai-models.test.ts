import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { OyError } from '../../../src/shared/errors.js';
import { listOpenAiModels } from '../../../src/providers/openai/list-openai-models.js';
import { FAKE_OPENAI_KEY, rejectionOf, settingsFor, startOpenAiFake } from './openai-fixture.js';

describe('listOpenAiModels', () => {
  it('lists the ids an endpoint serves, in its order, without consuming the script', async () => {
    const fake = await startOpenAiFake([], ['qwen3-coder', 'llama-3.3-70b', 'gpt-oss-20b']);

    const models = await listOpenAiModels(settingsFor(fake));

    expect(models).toEqual(['qwen3-coder', 'llama-3.3-70b', 'gpt-oss-20b']);
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v1/models',
      protocol: 'openai',
    });
    expect(fake.requests[0]?.headers['authorization']).toBe(`Bearer ${FAKE_OPENAI_KEY}`);
    expect(fake.modelCalls).toHaveLength(0);
    fake.assertDone();
  });

  it('fails with a message naming the endpoint when nothing listens there', async () => {
    const fake = await startOpenAiFake([]);
    const settings = settingsFor(fake);
    await fake.close();

    const error = await rejectionOf(listOpenAiModels(settings, { timeoutMs: 1_000 }));

    expect(error).toBeInstanceOf(OyError);
    expect((error as OyError).message).toContain(settings.baseURL);
    expect((error as OyError).hint).toBe(`is the server at ${settings.baseURL} running?`);
    fake.assertDone();
  });

  it('fails with the status, without the key, when the endpoint refuses', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: `bad key ${FAKE_OPENAI_KEY}`,
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    try {
      const error = await rejectionOf(
        listOpenAiModels({ apiKey: FAKE_OPENAI_KEY, baseURL: `http://127.0.0.1:${port}/v1` }),
      );

      expect((error as OyError).message).toContain('HTTP 401');
      expect((error as OyError).hint).toContain('API key');
      expect(JSON.stringify(error) + String((error as OyError).message)).not.toContain(
        FAKE_OPENAI_KEY,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
