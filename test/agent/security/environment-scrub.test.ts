import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSupervised } from '../../../src/agent/shell/run-supervised.js';
import { scrubEnvironment } from '../../../src/agent/shell/scrub-environment.js';
import { createRedactor } from '../../../src/safety/redact/index.js';

// Security suite "environment scrub" (SECURITY.md "Commands cannot outlive their timeout or read provider keys"): credentials in oy's environment, recognised by
// name or by value, never reach a command's environment; ordinary variables and names the user
// allows in agent.allowEnv still do. Every value is generated at run time.

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
    env: scrubEnvironment({ ...base, ...variables }, allowed),
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

// Names that look close but describe the desktop or a tool's settings: they must stay.
const KEPT_BY_NAME = [
  'SESSION_MANAGER',
  'XDG_SESSION_TYPE',
  'XDG_SESSION_ID',
  'BUNDLE_GEMFILE',
  'BUNDLE_PATH',
  'BUNDLE_BUILD__NOKOGIRI',
  'LOGIN_SHELL_FLAVOUR',
];

/** Token-shaped values under innocent names: only the value gives them away. */
function tokenValues(): Record<string, string> {
  const jwtHeader = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
  const jwtBody = Buffer.from(`{"sub":"${plain()}"}`).toString('base64url');
  return {
    UPSTREAM_SETTING: join('gh', 'p_', random(36)),
    DEPLOY_HELPER: join('sk-ant-', 'api03-', random(93, `${BASE62}-_`), 'AA'),
    BUILD_ARTIFACT: join('AKIA', random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')),
    CHAT_HOOK_HELPER: join(
      'xox',
      'b-',
      random(11, '0123456789'),
      '-',
      random(12, '0123456789'),
      '-',
      random(24),
    ),
    STAGE_ID: `${jwtHeader}.${jwtBody}.${random(43)}`,
  };
}

/** URLs with credentials in them, under names that say nothing. */
function urlValues(): Record<string, string> {
  return {
    REDIS_URL: `redis://:${random(16)}@cache.internal:6379/0`,
    DATABASE_URL: `postgres://app:${random(16)}@db.internal/app`,
    PIP_INDEX_URL: `https://build:${random(16)}@pypi.example.com/simple`,
    UPSTREAM: `amqp://${plain()}:${random(12)}@mq.internal`,
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
  ...BY_NAME.map((name) => ({
    name: `${name} is removed by its name`,
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
    name: 'control: a URL without a password and a plain id reach the command',
    async check() {
      const env = { HOMEPAGE: `https://example.com/${plain()}`, BUILD_ID: plain() };
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
        { TS_AUTHKEY: authkey, FASTLANE_SESSION: session, REDIS_URL: urls.REDIS_URL ?? '' },
        ['TS_AUTHKEY', 'REDIS_URL'],
      );
      expect(seen).toContain(`TS_AUTHKEY=${authkey}`);
      expect(seen).toContain(`REDIS_URL=${urls.REDIS_URL}`);
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
