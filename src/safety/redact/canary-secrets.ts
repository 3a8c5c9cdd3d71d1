import { Buffer } from 'node:buffer';
import { VENDOR_CONTEXT_TABLE } from './rules/vendor-context-table.js';
import { fillTokenShape, VENDOR_TOKEN_SHAPES } from './rules/vendor-token-shapes.js';
import type { RedactionRuleInfo } from './redaction-rule.js';

/** A made-up secret for one rule, in a line of context, that the redactor must remove. */
export interface CanarySecret {
  rule: string;
  /** The text the canary sits in. */
  text: string;
  /** The part of the text the rule must redact. */
  value: string;
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE64 = `${BASE62}+/`;
const HEX = '0123456789abcdef';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Draws `length` characters from `alphabet`: seeded for the self-test, random in tests. */
export type CanaryDraw = (alphabet: string, length: number) => string;

/** Deterministic characters from a small linear congruential generator: the same canaries every run. */
export function seededCanaryDraw(seed: number): CanaryDraw {
  let state = seed >>> 0;
  return (alphabet, length) => {
    let out = '';
    for (let index = 0; index < length; index += 1) {
      // Numerical Recipes LCG constants; the top bits are the most random.
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      out += alphabet[(state >>> 16) % alphabet.length];
    }
    return out;
  };
}

// The self-test's canaries: fixed, so a failure at start-up names the same value every time.
const SELF_TEST_SEED = 11;

function keyBlock(label: string, draw: CanaryDraw): string {
  const lines = Array.from({ length: 6 }, () => draw(BASE64, 64));
  return [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join('\n');
}

// Prefixes are assembled from pieces so this file holds no literal that a secret scanner flags.
const join = (...parts: string[]): string => parts.join('');

/**
 * One canary per built-in rule, built at run time (from a fixed seed unless `draw` says otherwise);
 * none is a real credential.
 */
export function buildCanarySecrets(
  draw: CanaryDraw = seededCanaryDraw(SELF_TEST_SEED),
): CanarySecret[] {
  const pkcs8 = join('PRIVATE', ' KEY');
  const gcpKey = keyBlock(pkcs8, draw).replaceAll('\n', '\\n') + '\\n';
  const rsa = keyBlock(join('RSA PRIVATE', ' KEY'), draw);
  const openssh = keyBlock(join('OPENSSH PRIVATE', ' KEY'), draw);
  const pgp = keyBlock(join('PGP PRIVATE', ' KEY BLOCK'), draw);
  const jwtHeader = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
  const jwtPayload = Buffer.from('{"sub":"oy-canary","iat":1700000000}').toString('base64url');
  const jwt = `${jwtHeader}.${jwtPayload}.${draw(BASE62, 43)}`;
  const awsSecret = draw(BASE64, 40);
  const azureKey = `${draw(BASE64, 86)}==`;
  const sharedKey = `${draw(BASE64, 43)}=`;
  const sasSignature = `${draw(BASE62, 43)}%3D`;
  const twilioKey = join('S', 'K', draw(HEX, 32));
  const webhook = join('hooks.', 'slack.com/services/T', draw(BASE62, 8).toUpperCase());
  const webhookValue = `${webhook}/B${draw(BASE32, 10)}/${draw(BASE62, 24)}`;
  const urlPassword = draw(BASE62, 20);
  const genericValue = draw(BASE62, 24);
  const canaries: CanarySecret[] = [
    {
      rule: 'gcp-service-account',
      text: `{"type": "service_account", "private_key": "${gcpKey}"}`,
      value: gcpKey,
    },
    { rule: 'openssh-private-key', text: `${openssh}\n`, value: openssh },
    { rule: 'pgp-private-key', text: `${pgp}\n`, value: pgp },
    { rule: 'pem-private-key', text: `${rsa}\n`, value: rsa },
    token('aws-access-key-id', 'key_id = ', join('AK', 'IA', draw(BASE32, 16))),
    token('aws-secret-access-key', 'aws_secret_access_key = ', awsSecret),
    token('telegram-bot-token', 'bot: ', `${draw('0123456789', 9)}:AA${draw(BASE62, 33)}`),
    token('google-api-key', 'const maps = ', join('AI', 'za', draw(BASE62, 35))),
    token(
      'azure-storage-account-key',
      'DefaultEndpointsProtocol=https;AccountName=oycanary;AccountKey=',
      azureKey,
      ';EndpointSuffix=core.windows.net',
    ),
    token(
      'azure-shared-access-key',
      'Endpoint=sb://oy-canary.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=',
      sharedKey,
    ),
    token(
      'azure-sas-token',
      'https://oycanary.blob.core.windows.net/c/f?sv=2022-11-02&sr=b&sp=r&sig=',
      sasSignature,
    ),
    token('github-token', 'GH = ', join('gh', 'p_', draw(BASE62, 36))),
    token('gitlab-token', 'GL = ', join('gl', 'pat-', draw(BASE62, 20))),
    token('npm-token', '//registry.npmjs.org/:_authToken=', join('np', 'm_', draw(BASE62, 36))),
    token('pypi-token', 'password = ', join('py', 'pi-', 'AgEIcHlwaS5vcmc', draw(BASE62, 60))),
    token(
      'slack-token',
      'SLACK = ',
      join('xo', 'xb-', draw('0123456789', 12), '-', draw(BASE62, 24)),
    ),
    token('slack-webhook-url', 'url: https://', webhookValue),
    token('stripe-live-key', 'stripe = ', join('sk', '_live_', draw(BASE62, 24))),
    token('anthropic-api-key', 'ANTHROPIC = ', join('sk-', 'ant-api03-', draw(BASE62, 93))),
    token(
      'openai-api-key',
      'OPENAI = ',
      join('sk-', 'proj-', draw(BASE62, 58), 'T3Blbk', 'FJ', draw(BASE62, 58)),
    ),
    token(
      'sendgrid-api-key',
      'SENDGRID = ',
      join('S', 'G.', draw(BASE62, 22), '.', draw(BASE62, 43)),
    ),
    token('mailgun-api-key', 'MAILGUN = ', join('ke', 'y-', draw(HEX, 32))),
    token('twilio-key', 'const client = twilio(sid, secret);\nconst keySid = "', twilioKey, '";'),
    token('jwt', 'Authorization: Bearer ', jwt),
    token('url-credentials', 'DATABASE_URL=postgres://app:', urlPassword, '@db.internal:5432/app'),
    token('generic-secret', 'db_password = "', genericValue, '"'),
    ...buildVendorCanaries(draw),
  ];
  return canaries;
}

/** One canary per vendor token shape, and for the rules whose keyword sits inside the token. */
function buildVendorCanaries(draw: CanaryDraw): CanarySecret[] {
  const vendor = Object.entries(VENDOR_TOKEN_SHAPES).map(([rule, shape]) =>
    token(rule, 'value: ', fillTokenShape(shape, draw)),
  );
  // The vendor's word in the key, the value in the vendor's shape.
  const vendorContext = VENDOR_CONTEXT_TABLE.map((row) =>
    token(row.id, `${row.keywords[0] ?? ''}_value = "`, fillTokenShape(row.sample, draw), '"'),
  );
  const jwtText = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('{"sub":"oy-canary"}').toString('base64url')}.${draw(BASE62, 43)}`;
  return [
    ...vendor,
    ...vendorContext,
    token(
      'facebook-app-token',
      'facebook app: ',
      join('1', draw('0123456789', 14), '|', draw(BASE62, 25), '7q'),
    ),
    token(
      'azure-ad-client-secret',
      'client_secret: ',
      join(draw(BASE62, 3), '7Q', '~', draw(BASE62, 34)),
    ),
    token('terraform-cloud-token', 'TF: ', join(draw(HEX, 14), '.atlas', 'v1.', draw(BASE62, 67))),
    token('maxmind-license-key', 'license: ', join(draw(BASE62, 6), '_', draw(BASE62, 29), '_mmk')),
    token('mailchimp-api-key', 'mc: ', join(draw(HEX, 32), '-us', '12')),
    token(
      'authress-access-key',
      'authress: ',
      join('sc_', draw(HEX, 12), '.', draw(HEX, 5), '.acc_', draw(HEX, 20), '.', draw(BASE62, 60)),
    ),
    token('npmrc-auth-token', '//npm.oy-canary.dev/:_authToken=', draw(BASE62, 36)),
    token('jenkins-credential', '<secret>{', join('AQAAABAAAAAQ', draw(BASE64, 40)), '}</secret>'),
    token('jwt-base64', 'blob: ', Buffer.from(jwtText).toString('base64')),
    token(
      'curl-user-password',
      'curl -s --user api:',
      join(draw(BASE62, 20), '7q'),
      ' https://api.oy/',
    ),
    token(
      'command-line-credential',
      'RUN mysql -uroot -p',
      join(draw(BASE62, 18), '7q'),
      ' -e "select 1"',
    ),
    token(
      'netrc-password',
      'machine git.oy-canary.dev\n  login deploy\n  password ',
      join(draw(BASE62, 18), '7q'),
    ),
    token('pgpass-password', 'db.oy-canary.dev:5432:app:app:', join(draw(BASE62, 18), '7q')),
    token('git-credentials', 'https://deploy:', join(draw(BASE62, 18), '7q'), '@git.oy-canary.dev'),
    token('mysql-option-file', '[client]\nuser = app\npassword = ', join(draw(BASE62, 18), '7q')),
    token(
      'kubeconfig-credential',
      'apiVersion: v1\nkind: Config\nusers:\n- name: oy-canary\n  user:\n    token: ',
      join(draw(BASE62, 30), '7q'),
    ),
    token(
      'base64-encoded-secret',
      '    client-key-data: ',
      Buffer.from(keyBlock(join('RSA PRIVATE', ' KEY'), draw)).toString('base64'),
    ),
    token(
      'password-hash',
      'admin:',
      join(
        '$2b',
        '$12$',
        draw('./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 53),
      ),
      ':19000:0:99999:7:::',
    ),
    token(
      'putty-private-key',
      join(
        'PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: oy-canary\n',
        'Public-Lines: 2\n',
        draw(BASE64, 64),
        '\n',
        draw(BASE64, 16),
        '\nPrivate-Lines: 1\n',
      ),
      draw(BASE64, 48),
      join('\nPrivate-MAC: ', draw(HEX, 64)),
    ),
    token(
      'credential-column',
      'name,email,password\noy,canary@oy.dev,',
      join(draw(BASE62, 18), '7q'),
    ),
    token(
      'kubernetes-secret',
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: oy-canary\ndata:\n  token: ',
      draw(BASE64, 40),
    ),
  ];
}

// A rule that needs a word near its secret, but whose secret is a fixed token: glued in its context.
const GLUED_IN_CONTEXT_RULES: ReadonlySet<string> = new Set(['twilio-key']);

/**
 * The canary of every rule whose secret names itself again, with a letter glued before the value
 * (`Xghp_...`) and, apart, one glued after it (`AKIA...X`): the redactor must still remove it.
 */
export function buildGluedCanarySecrets(
  rules: readonly RedactionRuleInfo[],
  draw: CanaryDraw = seededCanaryDraw(SELF_TEST_SEED),
): CanarySecret[] {
  const gluable = new Set(rules.filter((rule) => rule.namesItself).map((rule) => rule.id));
  return buildCanarySecrets(draw).flatMap((canary) => {
    const glue = (value: string): CanarySecret => ({
      ...canary,
      // Out of its assignment (`password = ...`), so a broader rule cannot take the glued word too.
      text: GLUED_IN_CONTEXT_RULES.has(canary.rule)
        ? canary.text.replace(canary.value, value)
        : `const blob = "${value}";\n`,
    });
    if (!gluable.has(canary.rule) && !GLUED_IN_CONTEXT_RULES.has(canary.rule)) return [];
    return [glue(`X${canary.value}`), glue(`${canary.value}X`)];
  });
}

function token(rule: string, before: string, value: string, after = ''): CanarySecret {
  return { rule, text: `${before}${value}${after}\n`, value };
}
