import { Buffer } from 'node:buffer';
import { VENDOR_CONTEXT_TABLE } from './rules/vendor-context-table.js';
import { fillTokenShape, VENDOR_TOKEN_SHAPES } from './rules/vendor-token-shapes.js';
import { VENDOR_TOKEN_TABLE } from './rules/vendor-token-table.js';

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

/** Deterministic characters from a small linear congruential generator: the same canaries every run. */
function canaryChars(alphabet: string, length: number, seed: number): string {
  let state = seed >>> 0;
  let out = '';
  for (let index = 0; index < length; index += 1) {
    // Numerical Recipes LCG constants; the top bits are the most random.
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out += alphabet[(state >>> 16) % alphabet.length];
  }
  return out;
}

function keyBlock(label: string, seed: number): string {
  const lines = Array.from({ length: 6 }, (_, index) => canaryChars(BASE64, 64, seed + index));
  return [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join('\n');
}

// Prefixes are assembled from pieces so this file holds no literal that a secret scanner flags.
const join = (...parts: string[]): string => parts.join('');

/**
 * One canary per built-in rule. Built at run time from fixed seeds; none is a real credential.
 */
export function buildCanarySecrets(): CanarySecret[] {
  const pkcs8 = join('PRIVATE', ' KEY');
  const gcpKey = keyBlock(pkcs8, 11).replaceAll('\n', '\\n') + '\\n';
  const rsa = keyBlock(join('RSA PRIVATE', ' KEY'), 21);
  const openssh = keyBlock(join('OPENSSH PRIVATE', ' KEY'), 31);
  const pgp = keyBlock(join('PGP PRIVATE', ' KEY BLOCK'), 41);
  const jwtHeader = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
  const jwtPayload = Buffer.from('{"sub":"oy-canary","iat":1700000000}').toString('base64url');
  const jwt = `${jwtHeader}.${jwtPayload}.${canaryChars(BASE62, 43, 51)}`;
  const awsSecret = canaryChars(BASE64, 40, 61);
  const azureKey = `${canaryChars(BASE64, 86, 71)}==`;
  const sharedKey = `${canaryChars(BASE64, 43, 81)}=`;
  const sasSignature = `${canaryChars(BASE62, 43, 91)}%3D`;
  const twilioKey = join('S', 'K', canaryChars(HEX, 32, 101));
  const webhook = join('hooks.', 'slack.com/services/T', canaryChars(BASE62, 8, 111).toUpperCase());
  const webhookValue = `${webhook}/B${canaryChars(BASE32, 10, 112)}/${canaryChars(BASE62, 24, 113)}`;
  const urlPassword = canaryChars(BASE62, 20, 121);
  const genericValue = canaryChars(BASE62, 24, 131);
  const canaries: CanarySecret[] = [
    {
      rule: 'gcp-service-account',
      text: `{"type": "service_account", "private_key": "${gcpKey}"}`,
      value: gcpKey,
    },
    { rule: 'openssh-private-key', text: `${openssh}\n`, value: openssh },
    { rule: 'pgp-private-key', text: `${pgp}\n`, value: pgp },
    { rule: 'pem-private-key', text: `${rsa}\n`, value: rsa },
    token('aws-access-key-id', 'key_id = ', join('AK', 'IA', canaryChars(BASE32, 16, 141))),
    token('aws-secret-access-key', 'aws_secret_access_key = ', awsSecret),
    token(
      'telegram-bot-token',
      'bot: ',
      `${canaryChars('0123456789', 9, 161)}:AA${canaryChars(BASE62, 33, 162)}`,
    ),
    token('google-api-key', 'const maps = ', join('AI', 'za', canaryChars(BASE62, 35, 151))),
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
    token('github-token', 'GH = ', join('gh', 'p_', canaryChars(BASE62, 36, 161))),
    token('gitlab-token', 'GL = ', join('gl', 'pat-', canaryChars(BASE62, 20, 171))),
    token(
      'npm-token',
      '//registry.npmjs.org/:_authToken=',
      join('np', 'm_', canaryChars(BASE62, 36, 181)),
    ),
    token(
      'pypi-token',
      'password = ',
      join('py', 'pi-', 'AgEIcHlwaS5vcmc', canaryChars(BASE62, 60, 191)),
    ),
    token(
      'slack-token',
      'SLACK = ',
      join('xo', 'xb-', canaryChars('0123456789', 12, 201), '-', canaryChars(BASE62, 24, 202)),
    ),
    token('slack-webhook-url', 'url: https://', webhookValue),
    token('stripe-live-key', 'stripe = ', join('sk', '_live_', canaryChars(BASE62, 24, 211))),
    token(
      'anthropic-api-key',
      'ANTHROPIC = ',
      join('sk-', 'ant-api03-', canaryChars(BASE62, 93, 221)),
    ),
    token(
      'openai-api-key',
      'OPENAI = ',
      join(
        'sk-',
        'proj-',
        canaryChars(BASE62, 58, 231),
        'T3Blbk',
        'FJ',
        canaryChars(BASE62, 58, 232),
      ),
    ),
    token(
      'sendgrid-api-key',
      'SENDGRID = ',
      join('S', 'G.', canaryChars(BASE62, 22, 241), '.', canaryChars(BASE62, 43, 242)),
    ),
    token('mailgun-api-key', 'MAILGUN = ', join('ke', 'y-', canaryChars(HEX, 32, 251))),
    token('twilio-key', 'const client = twilio(sid, secret);\nconst keySid = "', twilioKey, '";'),
    token('jwt', 'Authorization: Bearer ', jwt),
    token('url-credentials', 'DATABASE_URL=postgres://app:', urlPassword, '@db.internal:5432/app'),
    token('generic-secret', 'db_password = "', genericValue, '"'),
    ...buildVendorCanaries(),
  ];
  return canaries;
}

/** One canary per vendor token shape, and for the rules whose keyword sits inside the token. */
function buildVendorCanaries(): CanarySecret[] {
  let seed = 1000;
  const draw = (alphabet: string, length: number): string => canaryChars(alphabet, length, ++seed);
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
      Buffer.from(keyBlock(join('RSA PRIVATE', ' KEY'), 71)).toString('base64'),
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

// Rules whose secret starts with its own keyword: a word character glued before it must not hide
// it. Every vendor token that need not start a word is one of them.
const GLUED_BEFORE_RULES: ReadonlySet<string> = new Set([
  'aws-access-key-id',
  'google-api-key',
  'github-token',
  'gitlab-token',
  'npm-token',
  'pypi-token',
  'slack-token',
  'slack-webhook-url',
  'stripe-live-key',
  'anthropic-api-key',
  'openai-api-key',
  'sendgrid-api-key',
  'mailgun-api-key',
  'twilio-key',
  'jwt',
  ...VENDOR_TOKEN_TABLE.filter((row) => !row.startsWord).map((row) => row.id),
]);

// Rules that take word characters glued after a token (`npm_<36>X`) with it.
const GLUED_AFTER_RULES: ReadonlySet<string> = new Set([
  'github-token',
  'gitlab-token',
  'npm-token',
  'pypi-token',
  'slack-token',
  'stripe-live-key',
  'anthropic-api-key',
  'openai-api-key',
  'sendgrid-api-key',
  'mailgun-api-key',
  ...VENDOR_TOKEN_TABLE.filter((row) => row.takesGluedTail).map((row) => row.id),
]);

/**
 * The token canaries again with a word character glued before the value (`Xghp_...`), and after it
 * where the rule takes a glued tail (`npm_...X`): the redactor must still remove the whole value.
 */
export function buildGluedCanarySecrets(): CanarySecret[] {
  const canaries = buildCanarySecrets();
  // Out of its assignment (`password = ...`), so a broader rule cannot take the glued word too.
  const before = canaries
    .filter((canary) => GLUED_BEFORE_RULES.has(canary.rule))
    .map((canary) => ({
      ...canary,
      text:
        canary.rule === 'twilio-key'
          ? canary.text.replace(canary.value, `X${canary.value}`)
          : `const blob = "X${canary.value}";\n`,
    }));
  const after = canaries
    .filter((canary) => GLUED_AFTER_RULES.has(canary.rule))
    .map((canary) => ({ ...canary, text: `const blob = "${canary.value}X";\n` }));
  return [...before, ...after];
}

function token(rule: string, before: string, value: string, after = ''): CanarySecret {
  return { rule, text: `${before}${value}${after}\n`, value };
}
