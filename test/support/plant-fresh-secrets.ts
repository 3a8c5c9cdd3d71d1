import { Buffer } from 'node:buffer';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isSecretBearingFile } from '../../src/safety/secret-files.js';
import type { PlantedSecret } from './plant-secrets.js';
import { drawVendorTokenSamples, randomChars } from './vendor-token-samples.js';

// Secrets drawn afresh on every run (not seeded), in the file forms the redactor must read:
// one file per form family, one value per line, each with the rule that must report it.

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const j = (...parts: string[]): string => parts.join('');

interface FreshLine {
  rule: string;
  value: string;
  /** The line (or lines) holding the value. */
  text: string;
}

function vendorLines(): FreshLine[] {
  return drawVendorTokenSamples().map(({ rule, value }, index) => ({
    rule,
    value,
    text:
      index % 3 === 0 ? value : index % 3 === 1 ? `  token_${index}: ${value}` : `x = "${value}"`,
  }));
}

function contextLines(): FreshLine[] {
  const forms: Array<(v: string) => string> = [
    (v) => `var apiToken string = "${v}"`,
    (v) => `System.setProperty("SERVICE_TOKEN", "${v}");`,
    (v) => `SERVICE_TOKEN ?= ${v}`,
    (v) => `DEPLOY_TOKEN ::= ${v}`,
    (v) => `$serviceToken .= "${v}";`,
    (v) => `<serviceToken>\n    ${v}\n</serviceToken>`,
    (v) => `api_token2 = "${v}"`,
    (v) => `[DEBUG] Using Key=${v}`,
    (v) => `private const string storageAccountKey = "${v}";`,
    (v) => `ETSYToken := "${v}"`,
    (v) => `webex token - '${v}'`,
    (v) => `<add key="ClearTextPassword" value="${v}" />`,
    (v) => `if ("${v}" === private_key) {`,
    (v) => `password = @"${v}";`,
  ];
  return forms.map((form) => {
    const value = randomChars(ALNUM, 32);
    return { rule: 'generic-secret', value, text: form(value) };
  });
}

function otherLines(): FreshLine[] {
  const jwt = j(
    Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url'),
    '.',
    Buffer.from(`{"sub":"${randomChars(ALNUM, 12)}"}`).toString('base64url'),
    '.',
    randomChars(ALNUM, 43),
  );
  const base64Jwt = Buffer.from(jwt).toString('base64');
  const npm = randomChars(ALNUM, 36);
  const telegram = j(randomChars('0123456789', 10), ':', 'AA', randomChars(`${ALNUM}_-`, 33));
  return [
    { rule: 'telegram-bot-token', value: telegram, text: `notify: ${telegram}` },
    { rule: 'jwt-base64', value: base64Jwt, text: `AUTH_BLOB=${base64Jwt}` },
    { rule: 'npmrc-auth-token', value: npm, text: `//npm.pkg.example.net/:_authToken=${npm}` },
  ];
}

/** Writes fresh-secret files into `dir` and returns where each value is. */
export async function plantFreshSecrets(dir: string): Promise<PlantedSecret[]> {
  const files: Array<[string, FreshLine[]]> = [
    ['config/vendors.yaml', vendorLines()],
    ['src/settings.go.txt', contextLines()],
    ['tools/registry.txt', otherLines()],
  ];
  const planted: PlantedSecret[] = [];
  for (const [file, lines] of files) {
    const content = `${lines.map((line) => line.text).join('\n')}\n`;
    const absolute = path.join(dir, file);
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, content);
    const isSecretFile = isSecretBearingFile(file);
    for (const { rule, value } of lines) {
      const at = content.indexOf(value);
      if (at === -1 || content.indexOf(value, at + 1) !== -1) {
        throw new Error(`fresh value must occur exactly once in ${file}`);
      }
      const line = content.slice(0, at).split('\n').length;
      planted.push({
        value,
        kind: `fresh:${rule}`,
        rule: isSecretFile ? 'secret-file' : rule,
        path: file,
        line,
        isSecretFile,
      });
    }
  }
  return planted;
}
