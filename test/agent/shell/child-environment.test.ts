import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildChildEnvironment,
  hasCredentialValue,
  isPassedName,
} from '../../../src/agent/shell/child-environment.js';

/** The child environment without git's pins, which every child gets (tested in git-hardening). */
function childEnv(
  base: Record<string, string | undefined>,
  allowedNames: string[] = [],
  serverEnv?: Record<string, string>,
): Record<string, string> {
  const env = buildChildEnvironment(base, {
    allowedNames,
    ...(serverEnv === undefined ? {} : { serverEnv }),
  });
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('GIT_')));
}

describe('buildChildEnvironment', () => {
  it.each([
    'ANTHROPIC_API_KEY',
    'OPENAI_API_KEY',
    'AWS_ACCESS_KEY_ID',
    'GITHUB_TOKEN',
    'DB_PASSWORD',
    'SSH_AUTH_SOCK',
    'GIT_DIR',
    'OY_CONFIG',
    // Names no deny-list held (issue 25): an allow-list passes none of them.
    'LDAP_BIND_PW',
    'DB_PW',
    'DBPASS',
    'SMTPPASS',
    'WALLET_MNEMONIC',
    'ETH_PRIVKEY',
    'TOTP_SEED',
    'SERVICE_ACCOUNT_B64',
    'EDITOR',
    'PWD',
    'DISPLAY',
    'NODE_OPTIONS',
  ])('drops %s, a name outside the core set', (name) => {
    expect(childEnv({ [name]: 'value', PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  it.each([
    'PATH',
    'HOME',
    'USER',
    'LANG',
    'LC_ALL',
    'LC_CTYPE',
    'TERM',
    'TZ',
    'TMPDIR',
    'NVM_DIR',
    'GOPATH',
    'CARGO_HOME',
    'JAVA_HOME',
    'VIRTUAL_ENV',
  ])('passes %s, in the core set or a toolchain variable', (name) => {
    expect(isPassedName(name)).toBe(true);
    expect(childEnv({ [name]: '/opt/x' })).toEqual({ [name]: '/opt/x' });
  });

  it('drops a core variable whose value holds a credential', () => {
    const token = `ghp_${randomBytes(18).toString('hex').slice(0, 36)}`;
    expect(
      childEnv({ TERM: token, HTTPS_PROXY: 'http://u:hunter2@proxy:3128', LANG: 'C' }),
    ).toEqual({ LANG: 'C' });
    expect(hasCredentialValue('https://example.com/a:b@c')).toBe(false);
  });

  it('keeps only absolute PATH entries', () => {
    expect(childEnv({ PATH: '.:node_modules/.bin:/usr/bin::/bin' })).toEqual({
      PATH: '/usr/bin:/bin',
    });
  });

  it('passes a name the user allows exactly, credential or not, and only that name', () => {
    const env = { MY_SERVICE_TOKEN: 'a', OTHER_TOKEN: 'b', GIT_AUTHOR_NAME: 'c', UNSET: undefined };
    expect(childEnv(env, ['MY_SERVICE_TOKEN', 'my_other_token'])).toEqual({
      MY_SERVICE_TOKEN: 'a',
    });
  });

  it("adds a server's own env entries last", () => {
    expect(
      childEnv({ PATH: '/bin', TOKEN: 'x' }, [], { API_TOKEN: 'server', PATH: '/opt' }),
    ).toEqual({ PATH: '/opt', API_TOKEN: 'server' });
  });

  it('pins git whatever the allowed names say', () => {
    const env = buildChildEnvironment(
      { GIT_CONFIG_COUNT: '1' },
      { allowedNames: ['GIT_CONFIG_COUNT'] },
    );
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
    expect(Number(env.GIT_CONFIG_COUNT)).toBeGreaterThan(1);
  });
});
