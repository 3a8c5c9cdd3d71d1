import { Buffer } from 'node:buffer';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { expectUntouched } from '../../support/expect-redaction.js';
import { drawVendorTokenSamples, randomChars } from '../../support/vendor-token-samples.js';

// Base64 private keys and tokens where real repositories keep them: kubeadm's admin.conf, a
// kubectl config, a cluster definition, a Helm values file, a CI variable and a wrapped block.
// Every key is generated afresh on each run.
const b64 = (text: string): string => Buffer.from(text).toString('base64');

function freshKey(): string {
  const kinds = [
    () =>
      generateKeyPairSync('rsa', {
        modulusLength: 2048,
        privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      }).privateKey,
    () =>
      generateKeyPairSync('ec', {
        namedCurve: 'prime256v1',
        privateKeyEncoding: { type: 'sec1', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      }).privateKey,
    () =>
      generateKeyPairSync('ed25519', {
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      }).privateKey,
  ];
  return (kinds[Math.floor(Math.random() * kinds.length)] as () => string)();
}

function certificate(): string {
  const body = randomBytes(300)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

const kubeconfig = (key: string, name: string): string => `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${b64(certificate())}
    server: https://10.0.0.1:6443
  name: ${name}
contexts:
- context:
    cluster: ${name}
    user: ${name}-admin
  name: ${name}-admin@${name}
current-context: ${name}-admin@${name}
kind: Config
preferences: {}
users:
- name: ${name}-admin
  user:
    client-certificate-data: ${b64(certificate())}
    client-key-data: ${b64(key)}
`;

const SHAPES: ReadonlyArray<[file: string, build: (key: string) => string]> = [
  ['admin.conf', (key) => kubeconfig(key, 'kubernetes')],
  ['.kube/config', (key) => kubeconfig(key, 'prod-eu')],
  [
    'deploy/cluster.yaml',
    (key) => `cluster:\n  name: staging\n  auth:\n    clientKeyData: "${b64(key)}"\n`,
  ],
  [
    'charts/app/values.yaml',
    (key) => `ingress:\n  tls:\n    key: ${b64(key)}\n    crt: ${b64(certificate())}\n`,
  ],
  ['.github/workflows/deploy.yml', (key) => `env:\n  DEPLOY_MATERIAL_B64: ${b64(key)}\njobs: {}\n`],
  [
    'scripts/restore-key.sh',
    (key) => `base64 -d > key.pem <<'EOF'\n${b64(key).replace(/(.{76})/g, '$1\n')}\nEOF\n`,
  ],
];

console.log(`encoded keys: ${SHAPES.length} file shapes, tokens of every family`);

describe('base64 private keys', () => {
  it.each(SHAPES)('are hidden whole in %s, certificates left', (_file, build) => {
    const key = freshKey();
    const text = build(key);
    const result = createRedactor().redact(text);
    const encoded = b64(key);
    // No 40-character piece of the encoded key survives, wrapped or not.
    const flat = result.text.replace(/\s+/g, '');
    for (let at = 0; at + 40 <= encoded.length; at += 40) {
      expect(flat).not.toContain(encoded.slice(at, at + 40));
    }
    expect(result.redactions.map((r) => r.rule)).toContain('base64-encoded-secret');
    expect(result.text.split('\n').length).toBe(text.split('\n').length);
    // Certificates are public: they stay readable.
    const certificates = text.match(/LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t[A-Za-z0-9+/=]+/g) ?? [];
    for (const encodedCertificate of certificates)
      expect(result.text).toContain(encodedCertificate);
  });

  it('a plain Ed25519 key whose one body line holds a + is hidden too', () => {
    let key = '';
    while (!key.split('\n')[1]?.includes('+')) {
      key = generateKeyPairSync('ed25519', {
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      }).privateKey;
    }
    const result = createRedactor().redact(key);
    expect(result.text).not.toContain(key.split('\n')[1]);
  });

  it('leave public keys, certificates and random base64 alone', () => {
    const publicKey = generateKeyPairSync('ed25519', {
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).publicKey;
    expectUntouched(`public: ${b64(publicKey)}`);
    expectUntouched(`ca: ${b64(certificate())}`);
    expectUntouched(`blob: ${randomBytes(600).toString('base64')}`);
  });
});

describe('base64 self-identifying tokens', () => {
  it('are hidden where they stand, for every family', () => {
    const redactor = createRedactor();
    const missed: string[] = [];
    const samples = drawVendorTokenSamples();
    for (const sample of samples) {
      const encoded = b64(sample.value);
      const result = redactor.redact(`TOKEN_B64: ${encoded}\n`);
      if (result.text.includes(encoded)) missed.push(sample.rule);
    }
    expect(missed).toEqual([]);
    expect(samples.length).toBeGreaterThan(40);
  });

  it('and a near miss of each family, encoded, is left', () => {
    const redactor = createRedactor();
    const caught = drawVendorTokenSamples()
      .map((sample) => b64(sample.nearMiss))
      .filter((encoded) => redactor.redact(`blob: ${encoded}\n`).text !== `blob: ${encoded}\n`);
    expect(caught).toEqual([]);
  });
});

describe('kubeconfig by its content', () => {
  it('hides a user token and password in a file of any name', () => {
    const token =
      randomChars('abcdefghijklmnopqrstuvwxyz0123456789', 6) +
      '.' +
      randomChars('abcdefghijklmnopqrstuvwxyz0123456789', 16);
    const password = randomChars(
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
      20,
    );
    const text = `apiVersion: v1\nkind: Config\ncurrent-context: ci\nusers:\n- name: ci\n  user:\n    token: ${token}\n- name: basic\n  user:\n    username: admin\n    password: "${password}"\n`;
    const result = createRedactor().redact(text);
    expect(result.text).not.toContain(token);
    expect(result.text).not.toContain(password);
    expect(result.redactions.every((r) => r.rule === 'kubeconfig-credential')).toBe(true);
  });

  it('leaves a token path and an exec plugin alone', () => {
    expectUntouched(
      'kind: Config\nusers:\n- name: eks\n  user:\n    exec:\n      command: aws\n      args: ["eks", "get-token"]\n    tokenFile: /var/run/secrets/token\n',
    );
  });
});
