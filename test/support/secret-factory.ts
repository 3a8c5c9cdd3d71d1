import { seededRandom } from './seeded-random.js';
import { Buffer } from 'node:buffer';

// Format-valid fake credentials from a seeded PRNG, so that no test source holds a literal secret
// (nothing here is scanner bait) and every run plants the same values.

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const BASE62 = UPPER + LOWER + DIGITS;
const BASE64 = `${BASE62}+/`;
const BASE64URL = `${BASE62}-_`;
const HEX = '0123456789abcdef';
const BASE32 = `${UPPER}234567`;

// Prefixes are joined from pieces so this file holds no literal a secret scanner would flag.
const p = (...parts: string[]): string => parts.join('');

export type SecretFactory = ReturnType<typeof createSecretFactory>;

/** Generators of fake secrets, one per format, all drawing from one seeded stream. */
export function createSecretFactory(seed: number) {
  const random = seededRandom(seed);
  const chars = (alphabet: string, length: number): string => {
    let out = '';
    for (let index = 0; index < length; index += 1) {
      out += alphabet[Math.floor(random() * alphabet.length)];
    }
    return out;
  };
  const keyLines = (count: number): string[] =>
    Array.from({ length: count }, () => chars(BASE64, 64));
  const block = (label: string, body: string[]): string =>
    [`-----BEGIN ${label}-----`, ...body, `-----END ${label}-----`].join('\n');
  const jwtSegment = (value: object): string =>
    Buffer.from(JSON.stringify(value)).toString('base64url');

  return {
    chars,
    base62: (length: number) => chars(BASE62, length),
    hex: (length: number) => chars(HEX, length),
    awsAccessKeyId: () => p('AK', 'IA', chars(BASE32, 16)),
    awsSessionKeyId: () => p('AS', 'IA', chars(BASE32, 16)),
    awsSecretAccessKey: () => chars(BASE64, 40),
    githubToken: (kind: 'p' | 'o' | 'u' | 's' | 'r') => p('gh', kind, '_', chars(BASE62, 36)),
    githubFineGrained: () => p('github', '_pat_', chars(BASE62, 22), '_', chars(BASE62, 59)),
    gitlabToken: () => p('gl', 'pat-', chars(BASE62, 20)),
    slackBotToken: () =>
      p('xo', 'xb-', chars(DIGITS, 11), '-', chars(DIGITS, 13), '-', chars(BASE62, 24)),
    slackUserToken: () =>
      p(
        'xo',
        'xp-',
        chars(DIGITS, 11),
        '-',
        chars(DIGITS, 12),
        '-',
        chars(DIGITS, 13),
        '-',
        chars(HEX, 32),
      ),
    slackWebhook: () =>
      p(
        'https://hooks.',
        'slack.com/services/T',
        chars(UPPER + DIGITS, 8),
        '/B',
        chars(UPPER + DIGITS, 10),
        '/',
        chars(BASE62, 24),
      ),
    stripeLive: (kind: 's' | 'r') => p(kind, 'k_', 'live_', chars(BASE62, 24)),
    anthropicKey: () => p('sk-', 'ant-', 'api03-', chars(BASE64URL, 93), 'AA'),
    openaiProjectKey: () =>
      p('sk-', 'proj-', chars(BASE64URL, 74), 'T3Blbk', 'FJ', chars(BASE64URL, 74)),
    openaiLegacyKey: () => p('sk-', chars(BASE62, 20), 'T3Blbk', 'FJ', chars(BASE62, 20)),
    googleApiKey: () => p('AI', 'za', chars(BASE64URL, 35)),
    azureStorageKey: () => `${chars(BASE64, 86)}==`,
    azureSharedAccessKey: () => `${chars(BASE64, 43)}=`,
    azureSasSignature: () => `${chars(BASE62, 43)}%3D`,
    npmToken: () => p('np', 'm_', chars(BASE62, 36)),
    pypiToken: () => p('py', 'pi-', 'AgEIcHlwaS5vcmc', chars(BASE64URL, 70)),
    twilioApiKeySid: () => p('S', 'K', chars(HEX, 32)),
    twilioAccountSid: () => p('A', 'C', chars(HEX, 32)),
    sendgridKey: () => p('S', 'G.', chars(BASE64URL, 22), '.', chars(BASE64URL, 43)),
    mailgunKey: () => p('ke', 'y-', chars(HEX, 32)),
    jwt: () =>
      [
        jwtSegment({ alg: 'HS256', typ: 'JWT' }),
        jwtSegment({ sub: `user-${chars(DIGITS, 6)}`, role: 'admin', iat: 1_700_000_000 }),
        chars(BASE64URL, 43),
      ].join('.'),
    password: () => chars(BASE62, 20),
    genericSecret: () => chars(BASE62, 32),
    base64Secret: () => Buffer.from(chars(BASE62, 18)).toString('base64'),
    rsaPrivateKey: () => block(p('RSA PRIVATE', ' KEY'), keyLines(25)),
    ecPrivateKeyEscaped: () => block(p('EC PRIVATE', ' KEY'), keyLines(3)).replaceAll('\n', '\\n'),
    pkcs8PrivateKey: () => block(p('PRIVATE', ' KEY'), keyLines(25)),
    opensshPrivateKey: () => block(p('OPENSSH PRIVATE', ' KEY'), keyLines(7)),
    pgpPrivateKey: () =>
      block(p('PGP PRIVATE', ' KEY BLOCK'), [
        'Comment: release signing key',
        '',
        ...keyLines(20),
        `=${chars(BASE64, 4)}`,
      ]),
  };
}
