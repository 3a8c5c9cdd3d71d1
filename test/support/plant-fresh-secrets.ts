import { Buffer } from 'node:buffer';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isSecretBearingFile } from '../../src/safety/secret-files.js';
import type { PlantedSecret } from './plant-secrets.js';
import {
  freshPassword,
  KEY_NAMED_FORMS,
  secretFamilies,
  splitTokenForm,
  TOKEN_FORMS,
  vendorContextFamilies,
} from './attack-forms.js';
import { drawVendorTokenSamples, randomChars } from './vendor-token-samples.js';

// Secrets drawn afresh on every run (not seeded), in the file forms the redactor must read:
// one file per form family, each value with the rule that must report it and the name of its form.
// Issue forms (`issue:`) are the forms issue 14 lists as missed; the leak suite counts them.

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const URLSAFE = `${ALNUM}_-`;
const r = randomChars;
const j = (...parts: string[]): string => parts.join('');

interface FreshLine {
  /** What the form is: `issue:<form>` for the forms of issue 14, else `token:`, `attack:`, ... */
  form: string;
  rule: string;
  value: string;
  /** The line (or lines) holding the value. */
  text: string;
  /** Pieces of a split or encoded value, each planted (and checked) on its own; the value when absent. */
  pieces?: string[];
}

// Self-identifying families the issue lists as missed alone on a line (the rest are placed in
// keys and assignments, a third each).
const ALONE_ON_A_LINE = new Set([
  'huggingface-token',
  'azure-ad-client-secret',
  'slack-app-token',
  'gitlab-agent-token',
  'gitlab-runner-registration-token',
  'shopify-token',
  'digitalocean-token',
  'sentry-token',
  'grafana-token',
  'databricks-token',
  'notion-token',
  'postman-api-key',
  'doppler-token',
  'pulumi-token',
  'linear-api-key',
  'planetscale-token',
  'flyio-token',
  'heroku-api-key',
  'perplexity-api-key',
  'cloudflare-origin-ca-key',
  'aws-bedrock-api-key',
]);

function vendorLines(): FreshLine[] {
  return drawVendorTokenSamples().map(({ rule, value }, index) => {
    if (ALONE_ON_A_LINE.has(rule)) return { form: `issue:alone:${rule}`, rule, value, text: value };
    const text = index % 2 === 0 ? `  token_${index}: ${value}` : `x = "${value}"`;
    return { form: `token:${rule}`, rule, value, text };
  });
}

function contextLines(): FreshLine[] {
  const forms: Array<[form: string, write: (v: string) => string]> = [
    ['issue:go-typed-var', (v) => `var apiToken string = "${v}"`],
    ['issue:java-set-property', (v) => `System.setProperty("SERVICE_TOKEN", "${v}");`],
    ['issue:makefile-?=', (v) => `SERVICE_TOKEN ?= ${v}`],
    ['issue:makefile-::=', (v) => `DEPLOY_TOKEN ::= ${v}`],
    ['issue:makefile-:::=', (v) => `RELEASE_TOKEN :::= ${v}`],
    ['issue:php-.=', (v) => `$serviceToken .= "${v}";`],
    ['issue:xml-element-own-line', (v) => `<serviceToken>\n    ${v}\n</serviceToken>`],
    ['issue:name-ending-in-digit', (v) => `api_token2 = "${v}"`],
    ['context:log-key', (v) => `[DEBUG] Using Key=${v}`],
    ['context:csharp-const', (v) => `private const string storageAccountKey = "${v}";`],
    ['context:acronym-token', (v) => `ETSYToken := "${v}"`],
    ['context:dash-quote', (v) => `webex token - '${v}'`],
    ['context:nuget-value', (v) => `<add key="ClearTextPassword" value="${v}" />`],
    ['context:compared-literal', (v) => `if ("${v}" === private_key) {`],
    ['context:objc-string', (v) => `password = @"${v}";`],
  ];
  return forms.map(([form, write]) => {
    const value = r(ALNUM, 32);
    return { form, rule: 'generic-secret', value, text: write(value) };
  });
}

function otherLines(): FreshLine[] {
  const jwt = j(
    Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url'),
    '.',
    Buffer.from(`{"sub":"${r(ALNUM, 12)}"}`).toString('base64url'),
    '.',
    r(ALNUM, 43),
  );
  const base64Jwt = Buffer.from(jwt).toString('base64');
  const npm = j('np', 'm_', r(ALNUM, 34), 'q7');
  const npmUuid = [r(HEX, 8), r(HEX, 4), `4${r(HEX, 3)}`, `a${r(HEX, 3)}`, r(HEX, 12)].join('-');
  const telegram = j(r('0123456789', 10), ':', 'AA', r(URLSAFE, 31), 'q7');
  const stripe = j('sk', '_test_', r(ALNUM, 22), 'q7');
  const mailgun = j('ke', 'y-', r(HEX, 30), 'a7');
  const vault = j('hv', 's.', r(URLSAFE, 93), 'q7');
  const doppler = j('dp', '.pt.', r(ALNUM, 41), 'q7');
  const doToken = j('do', 'p_v1_', r(HEX, 62), 'a7');
  const glued = j('gh', 'p_', r(ALNUM, 34), 'q7');
  const azureKey = `${r(`${ALNUM}+/`, 86)}==`;
  const mysqlPassword = `${['river', 'Stone', 'amber'][Number(r('012', 1))] ?? 'river'}Secret${r('0123456789', 4)}`;
  const teams = j(
    'oy.webhook.office.com/webhookb2/',
    r(URLSAFE, 36),
    '@',
    r(URLSAFE, 36),
    '/IncomingWebhook/',
    r(HEX, 32),
    '/',
    r(URLSAFE, 36),
  );
  const discord = j('discord.com/api/webhooks/', r('0123456789', 18), '/', r(URLSAFE, 68));
  return [
    {
      form: 'issue:telegram-bot',
      rule: 'telegram-bot-token',
      value: telegram,
      text: `notify: ${telegram}`,
    },
    {
      form: 'issue:base64-jwt',
      rule: 'jwt-base64',
      value: base64Jwt,
      text: `AUTH_BLOB=${base64Jwt}`,
    },
    {
      form: 'issue:npmrc-registry-token',
      rule: 'npm-token',
      value: npm,
      text: `//registry.npmjs.org/:_authToken=${npm}`,
    },
    {
      form: 'issue:npmrc-legacy-uuid',
      rule: 'npmrc-auth-token',
      value: npmUuid,
      text: `//npm.pkg.example.net/:_authToken=${npmUuid}`,
    },
    {
      form: 'issue:vendor-key-stripe',
      rule: 'stripe-key',
      value: stripe,
      text: `STRIPE_KEY=${stripe}`,
    },
    {
      form: 'issue:vendor-key-mailgun',
      rule: 'mailgun-api-key',
      value: mailgun,
      text: `MAILGUN_KEY=${mailgun}`,
    },
    {
      form: 'issue:dotted-vault-token',
      rule: 'vault-token',
      value: vault,
      text: `VAULT_TOKEN=${vault}`,
    },
    {
      form: 'issue:dotted-doppler-token',
      rule: 'doppler-token',
      value: doppler,
      text: `DOPPLER_TOKEN=${doppler}`,
    },
    {
      form: 'issue:do-token-assigned',
      rule: 'digitalocean-token',
      value: doToken,
      text: `token = "${doToken}"`,
    },
    { form: 'issue:glued-token', rule: 'github-token', value: glued, text: `blob = "Xx${glued}"` },
    {
      form: 'issue:azure-storage-key-outside-accountkey',
      rule: 'azure-storage-key',
      value: azureKey,
      text: `AZURE_STORAGE_KEY=${azureKey}`,
    },
    {
      form: 'issue:mysql-word-and-digit-password',
      rule: 'url-credentials',
      value: mysqlPassword,
      text: `DATABASE_URL=mysql://devuser:${mysqlPassword}@db.internal:3306/app`,
    },
    {
      form: 'issue:teams-webhook',
      rule: 'teams-webhook',
      value: teams,
      text: `TEAMS_WEBHOOK_URL=https://${teams}`,
    },
    {
      form: 'issue:discord-webhook',
      rule: 'discord-webhook',
      value: discord,
      text: `DISCORD_WEBHOOK=https://${discord}`,
    },
  ];
}

/**
 * The attack forms, one value each: every token form with a family taken in turn, every key-named
 * form with a fresh password, vendor-named keys, and split tokens. Forms and families are in
 * `attack-forms.ts`; the unit suite runs every family through every form.
 */
function attackLines(): FreshLine[] {
  const families = secretFamilies();
  const lines: FreshLine[] = [];
  TOKEN_FORMS.forEach((form, index) => {
    const family = families[(index * 7) % families.length];
    if (family === undefined) return;
    const value = family.make();
    lines.push({
      form: `attack:token:${form.name}`,
      rule: family.rule,
      value,
      text: form.write(value).text.trimEnd(),
    });
  });
  for (const form of KEY_NAMED_FORMS) {
    const value = freshPassword();
    const { text, pieces } = form.write(value);
    lines.push({
      form: ISSUE_KEY_NAMED_FORMS[form.name] ?? `attack:key-named:${form.name}`,
      rule: keyNamedRule(form.name),
      value,
      text: text.trimEnd(),
      ...(pieces && { pieces }),
    });
  }
  for (const family of vendorContextFamilies().slice(0, 4)) {
    const value = family.make();
    lines.push({
      form: `vendor-named:${family.rule}`,
      rule: family.rule,
      value,
      text: `${family.word}: "${value}"`,
    });
  }
  for (const family of families.slice(0, 2)) {
    const value = family.make();
    const { text, pieces } = splitTokenForm(value);
    lines.push({
      form: `attack:split:${family.rule}`,
      rule: family.rule,
      value,
      text: text.trimEnd(),
      pieces,
    });
  }
  return lines;
}

// Key-named forms the issue lists as missed.
const ISSUE_KEY_NAMED_FORMS: Readonly<Record<string, string>> = {
  JDBC: 'issue:jdbc-password',
  'URL query': 'issue:query-password',
};

/** The rule that names a password written in a key-named form. */
function keyNamedRule(form: string): string {
  if (form === 'URL userinfo') return 'url-credentials';
  return 'generic-secret';
}

/** Writes fresh-secret files into `dir` and returns where each value is. */
export async function plantFreshSecrets(dir: string): Promise<PlantedSecret[]> {
  const files: Array<[string, FreshLine[]]> = [
    ['config/vendors.yaml', vendorLines()],
    ['src/settings.go.txt', contextLines()],
    ['tools/registry.txt', otherLines()],
    ['notes/attack-forms.txt', attackLines()],
  ];
  const planted: PlantedSecret[] = [];
  for (const [file, lines] of files) {
    const content = `${lines.map((line) => line.text).join('\n')}\n`;
    const absolute = path.join(dir, file);
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, content);
    const isSecretFile = isSecretBearingFile(file);
    for (const { form, rule, value, pieces = [value] } of lines) {
      for (const piece of pieces) {
        const at = content.indexOf(piece);
        if (at === -1 || content.indexOf(piece, at + 1) !== -1) {
          throw new Error(`fresh value must occur exactly once in ${file}`);
        }
        // A split value is reported where it starts: on its first piece's line.
        const line = content.slice(0, content.indexOf(pieces[0] ?? piece)).split('\n').length;
        planted.push({
          value: piece,
          kind: `fresh:${form}`,
          rule: isSecretFile ? 'secret-file' : rule,
          path: file,
          line,
          isSecretFile,
        });
      }
    }
  }
  return planted;
}
