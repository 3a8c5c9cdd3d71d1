import { describe, expect, it } from 'vitest';
import { isCredentialLike, scrubEnvironment } from '../../../src/agent/shell/scrub-environment.js';

describe('scrubEnvironment', () => {
  it.each([
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_BASE_URL',
    'OPENAI_API_KEY',
    'OPENROUTER_API_KEY',
    'LOCAL_API_KEY',
    'AWS_ACCESS_KEY_ID',
    'AWS_PROFILE',
    'AZURE_CLIENT_SECRET',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'BEDROCK_ENDPOINT',
    'GITHUB_TOKEN',
    'GH_TOKEN',
    'NPM_TOKEN',
    'MY_SERVICE_TOKEN',
    'STRIPE_SECRET_KEY',
    'DB_PASSWORD',
    'MYSQLPASSWORD',
    'PGPASSWORD',
    'DEPLOY_PASS',
    'DOCKER_AUTH_CONFIG',
    'SENTRY_DSN',
    'SLACK_WEBHOOK_URL',
    'SSH_AUTH_SOCK',
    'GIT_DIR',
    'GIT_SSH_COMMAND',
    'GIT_CONFIG_GLOBAL',
    'OY_CONFIG',
    'OY_MODEL',
    'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
    'github_token',
    'Some_Api_Key',
  ])('removes %s', (name) => {
    expect(scrubEnvironment({ [name]: 'value', PATH: '/bin' }, [])).toEqual({ PATH: '/bin' });
  });

  it.each([
    'PATH',
    'HOME',
    'LANG',
    'TERM',
    'PWD',
    'OLDPWD',
    'USER',
    'SHELL',
    'TOKENIZERS_PARALLELISM',
    'EDITOR',
  ])('keeps %s', (name) => {
    expect(isCredentialLike(name, 'plain value')).toBe(false);
  });

  it('removes a variable whose value is a URL with a password, whatever its name', () => {
    expect(scrubEnvironment({ DATABASE_URL: 'postgres://u:hunter2@db/app' }, [])).toEqual({});
    expect(scrubEnvironment({ HOMEPAGE: 'https://example.com/a:b@c' }, [])).toEqual({
      HOMEPAGE: 'https://example.com/a:b@c',
    });
  });

  it('keeps a name the config allows exactly, and only that name', () => {
    const env = { MY_SERVICE_TOKEN: 'a', OTHER_TOKEN: 'b', GIT_AUTHOR_NAME: 'c', UNSET: undefined };
    expect(
      scrubEnvironment(env, ['MY_SERVICE_TOKEN', 'GIT_AUTHOR_NAME', 'my_other_token']),
    ).toEqual({
      MY_SERVICE_TOKEN: 'a',
      GIT_AUTHOR_NAME: 'c',
    });
  });
});
