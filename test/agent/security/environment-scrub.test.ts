import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSupervised } from '../../../src/agent/shell/run-supervised.js';
import { buildChildEnvironment } from '../../../src/agent/shell/child-environment.js';
import { createRedactor } from '../../../src/safety/redact/index.js';

// Security suite "environment scrub" (SECURITY.md "Commands see a core environment"): only the core set and
// toolchain variables reach a command, each dropped when its value holds a credential; names the
// user allows in agent.allowEnv still do. Every value is generated at run time.

const workspace = mkdtempSync(path.join(tmpdir(), 'oy-env-scrub-'));
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const random = (length: number, alphabet = BASE62): string =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
// A plain value no rule recognises: only the name can say it is a credential.
const plain = (): string => `v${randomBytes(9).toString('hex')}`;
const join = (...parts: string[]): string => parts.join('');

/** The command's whole environment (`env` output) when oy's own holds `variables`. */
async function commandEnvironment(
  variables: Record<string, string>,
  allowed: readonly string[] = [],
): Promise<string> {
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '' };
  const result = await runSupervised({
    command: 'env',
    cwd: workspace,
    timeoutMs: 20_000,
    env: buildChildEnvironment({ ...base, ...variables }, { allowedNames: allowed }),
    sandbox: { kind: 'none', reason: 'the environment is what is tested' },
  });
  expect(result.exit_code).toBe(0);
  return result.stdout;
}

const BY_NAME = [
  'TS_AUTHKEY',
  'TAILSCALE_AUTHKEY',
  'HEADSCALE_AUTHKEY',
  'BUNDLE_GEMS__EXAMPLE__COM',
  'BUNDLE_RUBYGEMS__PKG__GITHUB__COM',
  'CI_JOB_JWT',
  'CI_JOB_JWT_V1',
  'CI_JOB_JWT_V2',
  'CI_JOB_TOKEN',
  'FASTLANE_SESSION',
  'FASTLANE_PASSWORD',
  'SONAR_LOGIN',
  'SONAR_TOKEN',
  'BW_SESSION',
  'VAULT_TOKEN',
  'VAULT_ADDR',
  'KUBECONFIG',
  'MYSQL_PWD',
  'SOME_SERVICE_BEARER',
];

// Ordinary names a deny-list kept: outside the core set, so they go too.
const DROPPED_ORDINARY = ['SESSION_MANAGER', 'XDG_SESSION_TYPE', 'BUNDLE_GEMFILE', 'EDITOR'];

// The core set and toolchain variables: with a plain value they reach the command.
const KEPT_BY_NAME = [
  'LANG',
  'LC_ALL',
  'TZ',
  'TERM',
  'NVM_DIR',
  'GOPATH',
  'JAVA_HOME',
  'CARGO_HOME',
];

/** Token-shaped values under names the core set passes: only the value gives them away. */
function tokenValues(): Record<string, string> {
  const jwtHeader = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
  const jwtBody = Buffer.from(`{"sub":"${plain()}"}`).toString('base64url');
  return {
    TERM: join('gh', 'p_', random(36)),
    TZ: join('sk-ant-', 'api03-', random(93, `${BASE62}-_`), 'AA'),
    LANG: join('AKIA', random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')),
    GOFLAGS: join(
      'xox',
      'b-',
      random(11, '0123456789'),
      '-',
      random(12, '0123456789'),
      '-',
      random(24),
    ),
    JAVA_HOME: `${jwtHeader}.${jwtBody}.${random(43)}`,
  };
}

/** URLs with credentials in them, under names the core set passes. */
function urlValues(): Record<string, string> {
  return {
    HTTPS_PROXY: `http://build:${random(16)}@proxy.internal:3128`,
    http_proxy: `http://:${random(16)}@proxy.internal:3128`,
    GOPROXY: `https://build:${random(16)}@goproxy.example.com`,
    NO_PROXY: `amqp://${plain()}:${random(12)}@mq.internal`,
  };
}

interface Case {
  name: string;
  check: () => Promise<void>;
}

const tokens = tokenValues();
const urls = urlValues();
const cases: Case[] = [
  ...Object.entries(urls).map(([name, value]) => ({
    name: `${name} is removed because its value is a URL with a password`,
    async check() {
      expect(await commandEnvironment({ [name]: value })).not.toContain(value);
    },
  })),
  ...[...BY_NAME, ...DROPPED_ORDINARY].map((name) => ({
    name: `${name} is removed: not in the core set`,
    async check() {
      const value = plain();
      expect(await commandEnvironment({ [name]: value })).not.toContain(value);
    },
  })),
  ...Object.entries(tokens).map(([name, value]) => ({
    name: `${name} is removed because its value is a credential`,
    async check() {
      expect(await commandEnvironment({ [name]: value })).not.toContain(value);
    },
  })),
  {
    name: 'control: each token-shaped value is one the redactor recognises (the check can fire)',
    async check() {
      const redactor = createRedactor();
      for (const [name, value] of Object.entries(tokens)) {
        expect([name, redactor.redact(`x ${value} x`).redactions.length > 0]).toEqual([name, true]);
      }
    },
  },
  ...KEPT_BY_NAME.map((name) => ({
    name: `control: ${name} with a plain value still reaches the command`,
    async check() {
      const value = plain();
      expect(await commandEnvironment({ [name]: value })).toContain(`${name}=${value}`);
    },
  })),
  {
    name: 'control: a proxy URL without a password and a plain locale reach the command',
    async check() {
      const env = { HTTPS_PROXY: `https://example.com/${plain()}`, LC_CTYPE: plain() };
      const seen = await commandEnvironment(env);
      for (const [name, value] of Object.entries(env)) expect(seen).toContain(`${name}=${value}`);
    },
  },
  {
    name: 'agent.allowEnv lets exactly the named credentials through',
    async check() {
      const authkey = plain();
      const session = plain();
      const seen = await commandEnvironment(
        { TS_AUTHKEY: authkey, FASTLANE_SESSION: session, REDIS_URL: urls.HTTPS_PROXY ?? '' },
        ['TS_AUTHKEY', 'REDIS_URL'],
      );
      expect(seen).toContain(`TS_AUTHKEY=${authkey}`);
      expect(seen).toContain(`REDIS_URL=${urls.HTTPS_PROXY}`);
      expect(seen).not.toContain(session);
    },
  },
];

describe('environment scrub suite', () => {
  it.each(cases)('$name', async ({ check }) => check(), 30_000);

  it('counts its cases', () => {
    console.log(`environment scrub suite: ${cases.length} cases`);
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });
});
