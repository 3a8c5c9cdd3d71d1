import { randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CacheSeal, type CachePurpose } from '../../src/audit/cache-seal/cache-seal.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';

/**
 * Whoever can write the cache folder (a CI cache restored from an untrusted job, a shared runner)
 * cannot decide what the gate sees: a planted scan-cache entry with no redactions leaves the
 * committed token gating, and a planted map-cache entry with no findings is ignored and the model
 * asked. Each attack is shown to work once sealed with the user's own key (the control), so the
 * test could fail; the secrets and the key of "another job" are made afresh on every run.
 */
let fake: FakeProviderServer;
let repo: string;
let home: string;
let token: string;
let cases = 0;

beforeEach(async () => {
  fake = await startFakeProvider();
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-cache-poison-')));
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-cache-poison-home-')));
  token = `ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
  mkdirSync(path.join(repo, 'src'));
  writeFileSync(path.join(repo, 'src', 'config.js'), `export const token = '${token}';\n`);
  writeFileSync(path.join(repo, 'src', 'run.js'), `${RISKY_LINE}\n`);
  writeFileSync(path.join(repo, '.gitignore'), 'out/\n');
  commitAll(repo);
});

afterEach(async () => {
  await fake.close();
  cases++;
});

afterAll(() => console.log(`cache poisoning: ${cases} cases`));

const RISKY_LINE = "require('child_process').exec(`convert ${process.argv[2]} out.png`);";
const CRITICAL = {
  title: 'Command injection in convert',
  severity: 'critical',
  category: 'command-injection',
  path: 'src/run.js',
  line: 1,
  end_line: 1,
  evidence: RISKY_LINE,
  impact: 'runs shell commands from the arguments',
  preconditions: 'none',
  fix: 'use execFile with an argument list',
  confidence: 0.9,
};

const env = () => ({
  ...fakeProviderEnv(fake),
  HOME: home,
  XDG_CACHE_HOME: path.join(home, 'cache'),
  XDG_STATE_HOME: path.join(home, 'state'),
});

function audit(args: string[]) {
  return runOy(['audit', '--fail-on', 'high', '--verbose', ...args], { cwd: repo, env: env() });
}

/** The user's own state key, as oy made it on the first run. */
function userStateKey(): Buffer {
  const text = readFileSync(path.join(home, 'state', 'oy', 'output-seal.key'), 'utf8');
  return Buffer.from(text.trim(), 'hex');
}

/** Every file of a cache, as `<cache>/oy/<sub>/...` holds them. */
function cacheFiles(sub: string): string[] {
  const dir = path.join(home, 'cache', 'oy', sub);
  return readdirSync(dir, { recursive: true })
    .map((name) => path.join(dir, String(name)))
    .filter((file) => file.endsWith('.json'));
}

/** The JSON of a sealed cache file (the MAC line dropped: an attacker can read it too). */
function readBody(file: string): Record<string, unknown> {
  const text = readFileSync(file, 'utf8');
  return JSON.parse(text.slice(text.indexOf('\n') + 1)) as Record<string, unknown>;
}

type Forger = 'no seal' | 'another job' | 'the user';

/** Writes `body` as each attacker could: unsealed, sealed under another job's key, or (control) the user's. */
function plant(file: string, body: string, context: string, purpose: CachePurpose, by: Forger) {
  const key = by === 'the user' ? userStateKey() : randomBytes(32);
  writeFileSync(file, by === 'no seal' ? body : CacheSeal.derive(key, purpose).seal(body, context));
}

describe('audit: a poisoned scan cache', () => {
  it.each(['no seal', 'another job'] as const)(
    'an entry planted with no redactions or hints (%s) is ignored: the committed token still exits 3',
    async (by) => {
      const first = await audit(['--offline']);
      expect(first.code, first.stderr).toBe(3);
      const [file] = cacheFiles('scan');
      const data = readBody(file!);
      for (const entry of Object.values(data.entries as Record<string, Record<string, unknown>>)) {
        entry.redactions = [];
        entry.hints = [];
      }
      plant(file!, JSON.stringify(data), repo, 'scan-cache', by);
      const second = await audit(['--offline']);
      expect(second.code, second.stderr).toBe(3);
      expect(second.stderr).toMatch(/^gate: .*src\/config\.js:1/m);
      expect(second.stderr).toMatch(
        /^note: scan cache .* ignored, every file is read and scanned again$/m,
      );
      expect(second.stderr + second.stdout).not.toContain(token);
    },
  );

  it("control: the same entry sealed with the user's own key is believed (exit 0), so the test can fail", async () => {
    expect((await audit(['--offline'])).code).toBe(3);
    const [file] = cacheFiles('scan');
    const data = readBody(file!);
    for (const entry of Object.values(data.entries as Record<string, Record<string, unknown>>))
      entry.redactions = [];
    plant(file!, JSON.stringify(data), repo, 'scan-cache', 'the user');
    const second = await audit(['--offline']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/^note: scan cache/m);
  });
});

describe('audit: a poisoned map cache', () => {
  const model = ['--model', 'anthropic::claude-haiku-4-5'];

  // Only the model's finding gates here: the token goes.
  beforeEach(() => {
    writeFileSync(path.join(repo, 'src', 'config.js'), 'export const token = process.env.TOKEN;\n');
    commitAll(repo, 'no token');
  });
  const answer = { kind: 'answer', text: JSON.stringify({ findings: [CRITICAL] }) } as const;

  /** A first run that reviews the repository and caches the answer; its one entry, emptied of findings. */
  async function cacheThenEmpty(): Promise<{ file: string; body: string; key: string }> {
    fake.enqueue(answer);
    const first = await audit(model);
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toMatch(/^gate: .*src\/run\.js:1/m);
    fake.assertDone();
    const [file] = cacheFiles('map');
    const data = readBody(file!);
    const result = data.result as Record<string, unknown>;
    result.findings = [];
    return { file: file!, body: JSON.stringify(data), key: String(data.key) };
  }

  it.each(['no seal', 'another job'] as const)(
    'an entry planted with no findings (%s) is ignored: the fake provider gets the call and the finding gates',
    async (by) => {
      const { file, body, key } = await cacheThenEmpty();
      plant(file, body, key, 'map-cache', by);
      fake.enqueue(answer);
      const second = await audit(model);
      expect(fake.modelCalls).toHaveLength(2);
      fake.assertDone();
      expect(second.code, second.stderr).toBe(3);
      expect(second.stderr).toMatch(
        /^note: map cache entry .* ignored, the chunk is reviewed again$/m,
      );
    },
  );

  it("control: the same entry sealed with the user's own key is believed: no call, exit 0", async () => {
    const { file, body, key } = await cacheThenEmpty();
    plant(file, body, key, 'map-cache', 'the user');
    const second = await audit(model);
    expect(fake.modelCalls).toHaveLength(1);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/^note: map cache/m);
  });
});
