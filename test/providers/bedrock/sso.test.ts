import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBedrockClient } from '../../../src/providers/bedrock/create-bedrock-client.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import type { ModelRequest } from '../../../src/providers/types.js';
import {
  bedrockRef,
  rejectionOf,
  settingsFor,
  startBedrockFake,
  useAwsEnvironment,
} from './bedrock-fixture.js';

const PROFILE = 'oy-sso';
const SSO_SESSION = 'oy-corp';
/** A token the cache says expired an hour ago; it must never be sent anywhere or shown. */
const EXPIRED_ACCESS_TOKEN = 'expired-sso-access-token-4b2d6f8a';

// A home with an SSO profile whose cached token expired and cannot be refreshed (no client registration).
const home = mkdtempSync(path.join(tmpdir(), 'oy-sso-home-'));
const configFile = path.join(home, '.aws', 'config');
const cacheDir = path.join(home, '.aws', 'sso', 'cache');
mkdirSync(cacheDir, { recursive: true });
writeFileSync(
  configFile,
  [
    `[profile ${PROFILE}]`,
    `sso_session = ${SSO_SESSION}`,
    'sso_account_id = 111122223333',
    'sso_role_name = BedrockReader',
    'region = us-east-1',
    '',
    `[profile no-token]`,
    'sso_session = never-logged-in',
    'sso_account_id = 111122223333',
    'sso_role_name = BedrockReader',
    '',
    `[sso-session ${SSO_SESSION}]`,
    'sso_start_url = https://example.awsapps.com/start',
    'sso_region = us-east-1',
    'sso_registration_scopes = sso:account:access',
    '',
    '[sso-session never-logged-in]',
    'sso_start_url = https://example.awsapps.com/start',
    'sso_region = us-east-1',
    '',
  ].join('\n'),
);
writeFileSync(
  path.join(cacheDir, `${createHash('sha1').update(SSO_SESSION).digest('hex')}.json`),
  JSON.stringify({
    startUrl: 'https://example.awsapps.com/start',
    region: 'us-east-1',
    accessToken: EXPIRED_ACCESS_TOKEN,
    expiresAt: new Date(Date.now() - 3_600_000).toISOString(),
  }),
);
const savedHome = process.env.HOME;
process.env.HOME = home;
afterAll(() => {
  process.env.HOME = savedHome;
  rmSync(home, { recursive: true, force: true });
});

useAwsEnvironment(() => ({
  AWS_ACCESS_KEY_ID: undefined,
  AWS_SECRET_ACCESS_KEY: undefined,
  AWS_CONFIG_FILE: configFile,
}));

const REQUEST: ModelRequest = {
  system: '',
  messages: [{ role: 'user', text: 'Hi' }],
  maxTokens: 64,
};

describe('Bedrock with an SSO profile', () => {
  it.each([
    { state: 'expired', profile: PROFILE },
    { state: 'missing', profile: 'no-token' },
  ])(
    'turns a $state SSO token into an auth error that says how to log in, before any request',
    async ({ profile }) => {
      process.env.AWS_PROFILE = profile;
      const fake = await startBedrockFake([]);
      const client = createBedrockClient(bedrockRef(), settingsFor(fake, { profile }));

      const streamed = await rejectionOf(
        (async () => {
          for await (const _event of client.stream(REQUEST)) break;
        })(),
      );
      const whole = await rejectionOf(client.complete(REQUEST));

      for (const error of [streamed, whole]) {
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({
          kind: 'auth',
          hint: expect.stringContaining(`aws sso login --profile ${profile}`),
        });
        const shown = `${(error as ProviderError).message} ${(error as ProviderError).hint ?? ''}`;
        expect(shown).not.toContain(EXPIRED_ACCESS_TOKEN);
      }
      expect(fake.requests).toEqual([]);
      fake.assertDone();
    },
  );

  it('hints at aws sso login without a profile name when none is known', async () => {
    process.env.AWS_PROFILE = PROFILE;
    const fake = await startBedrockFake([]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const error = await rejectionOf(client.complete(REQUEST));

    expect(error).toMatchObject({ kind: 'auth', hint: expect.stringContaining('aws sso login') });
    expect((error as ProviderError).hint).not.toContain('--profile');
    expect(fake.requests).toEqual([]);
    fake.assertDone();
  });
});
