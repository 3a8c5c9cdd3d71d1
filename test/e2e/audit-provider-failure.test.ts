import { cpSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { PROJECT_ROOT, runOy } from '../support/run-oy.js';

/** A provider that refuses the key, or cannot be reached, fails the audit (exit 1) whatever --allow-partial says. */
const FIXTURE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'repos', 'webapp');
let fake: FakeProviderServer;
let repo: string;
let cases = 0;

beforeEach(async () => {
  fake = await startFakeProvider();
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-provider-failure-')));
  cpSync(FIXTURE, repo, { recursive: true });
  writeFileSync(path.join(repo, '.gitignore'), 'out/\n');
  commitAll(repo);
});

afterEach(async () => {
  await fake.close();
  cases++;
});

afterAll(() => console.log(`audit provider failure: ${cases} cases`));

function audit(args: string[], env: Record<string, string>) {
  return runOy(['audit', '--model', 'anthropic::claude-haiku-4-5', '--no-cache', ...args], {
    cwd: repo,
    env: { ...env, XDG_CACHE_HOME: path.join(repo, 'out', 'cache') },
  });
}

/** A loopback port nothing listens on: bound, read, then closed. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('audit: provider failures are errors', () => {
  it.each([[[]], [['--allow-partial']]])(
    'a 401 stops the run with exit 1 and the reason on stderr (flags %j)',
    async (flags: string[]) => {
      fake.enqueue(reply.error(401, 'authentication_error'));
      const result = await audit(flags, fakeProviderEnv(fake));
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(/^error: .*401/m);
      expect(result.stderr).toMatch(/^hint: .+/m);
      // One refusal is enough: no call is retried and no report claims a result.
      expect(fake.modelCalls).toHaveLength(1);
      expect(result.stderr).not.toMatch(/^gate:/m);
    },
  );

  it('control: the same run with an accepted key exits 0', async () => {
    fake.enqueue({ kind: 'answer', text: JSON.stringify({ findings: [] }) });
    const result = await audit(['--allow-partial'], fakeProviderEnv(fake));
    expect(result.code, result.stderr).toBe(0);
  });

  it.each([[[]], [['--allow-partial']]])(
    'a refused connection exits 1 with the reason on stderr (flags %j)',
    async (flags: string[]) => {
      const port = await deadPort();
      const env = { ...fakeProviderEnv(fake), ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` };
      const result = await audit(flags, env);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(/^error: .*could not reach/m);
      expect(result.stderr).toMatch(/^hint: .*ANTHROPIC_BASE_URL/m);
    },
  );
});
