import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { expectRedacted, expectUntouched } from '../../support/expect-redaction.js';
import { createSecretFactory } from '../../support/secret-factory.js';

const f = createSecretFactory(7_000_001);
const j = (...parts: string[]): string => parts.join('');
const PRIVATE = j('PRIVATE', ' KEY');
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const base64Lines = (count: number): string[] =>
  Array.from({ length: count }, () => f.chars(B64, 64));

describe('pem-private-key', () => {
  it('redacts a multi-line key and keeps every later line on its number', () => {
    const key = f.rsaPrivateKey();
    const text = `const a = 1;\n${key}\nconst b = 2;\n`;
    const result = createRedactor().redact(text);
    expect(result.text).not.toContain(key);
    expect(result.redactions).toEqual([
      { rule: 'pem-private-key', line: 2, placeholder: '[REDACTED:pem-private-key:1]' },
    ]);
    const lines = result.text.split('\n');
    expect(lines.length).toBe(text.split('\n').length);
    expect(lines[1]).toBe('[REDACTED:pem-private-key:1]');
    expect(lines[key.split('\n').length + 1]).toBe('const b = 2;');
  });

  it('redacts keys written with \\n escapes, in concatenated strings, indented, encrypted or with CRLF', () => {
    const escaped = f.ecPrivateKeyEscaped();
    expectRedacted(`const KEY = "${escaped}";`, escaped, 'pem-private-key');

    const body = base64Lines(6);
    const concatenated = [
      `"-----BEGIN RSA ${PRIVATE}-----\\n"`,
      ...body.map((line) => `"${line}\\n"`),
      `"-----END RSA ${PRIVATE}-----\\n"`,
    ].join(' +\n  ');
    expectRedacted(`key = (\n  ${concatenated}\n)`, body[2] ?? '', 'pem-private-key', 2);

    const indented = `tls:\n  key: |\n    -----BEGIN ${PRIVATE}-----\n${base64Lines(6)
      .map((line) => `    ${line}`)
      .join('\n')}\n    -----END ${PRIVATE}-----\n`;
    expectRedacted(
      indented,
      indented.slice(indented.indexOf('-----BEGIN'), indented.lastIndexOf('-----') + 5),
      'pem-private-key',
      3,
    );

    const encrypted = [
      `-----BEGIN RSA ${PRIVATE}-----`,
      'Proc-Type: 4,ENCRYPTED',
      'DEK-Info: AES-128-CBC,0123456789ABCDEF0123456789ABCDEF',
      '',
      ...base64Lines(5),
      `-----END RSA ${PRIVATE}-----`,
    ].join('\n');
    expectRedacted(encrypted, encrypted, 'pem-private-key');

    const crlf = f.pkcs8PrivateKey().replaceAll('\n', '\r\n');
    expectRedacted(`${crlf}\r\n`, crlf, 'pem-private-key');
  });

  it('redacts a truncated key that has no END line', () => {
    const lines = base64Lines(5);
    const text = `-----BEGIN ${PRIVATE}-----\n${lines.join('\n')}\n\nmore text`;
    expectRedacted(text, lines[4] ?? '', 'pem-private-key');
    expect(createRedactor().redact(text).text).toContain('more text');
  });

  it('leaves public keys, certificates, elided examples and regular expressions alone', () => {
    expectUntouched(
      `-----BEGIN PUBLIC KEY-----\n${base64Lines(4).join('\n')}\n-----END PUBLIC KEY-----`,
    );
    expectUntouched(
      `-----BEGIN CERTIFICATE-----\n${base64Lines(4).join('\n')}\n-----END CERTIFICATE-----`,
    );
    expectUntouched(`key="-----BEGIN ${PRIVATE}-----\\nXXXX\\nXXXX\\n-----END ${PRIVATE}-----"`);
    expectUntouched(
      `# "-----BEGIN ${PRIVATE}-----...",\nconst x = 1;\n# "-----END ${PRIVATE}-----"`,
    );
    expectUntouched(`re = /-----BEGIN [A-Z ]*${PRIVATE}-----.+-----END [A-Z ]*${PRIVATE}-----/s;`);
    expectUntouched(
      `-----BEGIN RSA ${PRIVATE}-----\nEXAMPLE${base64Lines(2).join('\n')}\n-----END RSA ${PRIVATE}-----`,
    );
  });
});

describe('openssh-private-key and pgp-private-key', () => {
  it('redacts an OpenSSH key in a heredoc', () => {
    const key = f.opensshPrivateKey();
    expectRedacted(`cat > ~/.ssh/id <<'EOF'\n${key}\nEOF\n`, key, 'openssh-private-key', 2);
  });

  it('redacts a PGP private key block with armour headers', () => {
    const key = f.pgpPrivateKey();
    expectRedacted(`${key}\n`, key, 'pgp-private-key');
  });

  it('leaves a PGP public key block alone', () => {
    expectUntouched(
      `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${base64Lines(4).join('\n')}\n-----END PGP PUBLIC KEY BLOCK-----`,
    );
  });
});

describe('gcp-service-account', () => {
  it('redacts the private_key of a service-account JSON key as a whole', () => {
    const key = `${f.pkcs8PrivateKey().replaceAll('\n', '\\n')}\\n`;
    const json = `{\n  "type": "service_account",\n  "private_key_id": "abc",\n  "private_key": "${key}",\n  "client_email": "a@b.iam.gserviceaccount.com"\n}\n`;
    expectRedacted(json, key, 'gcp-service-account', 4);
    expect(createRedactor().redact(json).redactions).toHaveLength(1);
  });

  it('leaves an elided example alone', () => {
    expectUntouched(
      `{"private_key": "-----BEGIN EC ${PRIVATE}-----\\n<key bytes>\\n-----END EC ${PRIVATE}-----\\n"}`,
    );
  });
});
