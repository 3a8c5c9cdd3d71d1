import { Buffer } from 'node:buffer';
import { VENDOR_CONTEXT_TABLE } from '../../src/safety/redact/rules/vendor-context-table.js';
import { fillTokenShape } from '../../src/safety/redact/rules/vendor-token-shapes.js';
import { drawVendorTokenSamples, randomChars } from './vendor-token-samples.js';

// Secrets of every family, drawn afresh on each run, written in the forms a repository holds them:
// the attack side of the leak suites. Each form puts the value in a file's text; the redactor must
// leave none of it (nor, for a split value, any of its pieces) in what it returns.

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const r = randomChars;
const j = (...parts: string[]): string => parts.join('');

export interface SecretFamily {
  /** The rule expected to name it (the placeholder's type). */
  rule: string;
  make: () => string;
}

/**
 * A way of writing a secret: the text, and the pieces that must all be gone: the value itself,
 * unless the form splits or encodes it (then what the text holds of it).
 */
export interface AttackForm {
  name: string;
  write: (value: string) => { text: string; pieces?: string[] };
}

/** Every token family that names itself, plus the key-named generic secret. */
export function secretFamilies(): SecretFamily[] {
  const core: SecretFamily[] = [
    { rule: 'aws-access-key-id', make: () => j('AK', 'IA', r(`${UPPER}234567`, 14), 'Q7') },
    { rule: 'github-token', make: () => j('gh', 'p_', r(ALNUM, 34), 'q7') },
    {
      rule: 'github-token',
      make: () => j('github', '_pat_', r(ALNUM, 22), '_', r(ALNUM, 57), 'q7'),
    },
    { rule: 'gitlab-token', make: () => j('gl', 'pat-', r(ALNUM, 18), 'q7') },
    { rule: 'npm-token', make: () => j('np', 'm_', r(ALNUM, 34), 'q7') },
    {
      rule: 'slack-token',
      make: () => j('xo', 'xb-', r(DIGITS, 12), '-', r(DIGITS, 13), '-', r(ALNUM, 22), 'q7'),
    },
    { rule: 'stripe-live-key', make: () => j('sk', '_live_', r(ALNUM, 22), 'q7') },
    { rule: 'anthropic-api-key', make: () => j('sk-', 'ant-api03-', r(ALNUM, 93), 'AA') },
    {
      rule: 'openai-api-key',
      make: () => j('sk-', 'proj-', r(ALNUM, 72), 'q7', 'T3Blbk', 'FJ', r(ALNUM, 72), 'q7'),
    },
    { rule: 'google-api-key', make: () => j('AI', 'za', r(ALNUM, 33), 'q7') },
    { rule: 'sendgrid-api-key', make: () => j('S', 'G.', r(ALNUM, 22), '.', r(ALNUM, 41), 'q7') },
    { rule: 'mailgun-api-key', make: () => j('ke', 'y-', r(HEX, 30), 'a7') },
    { rule: 'telegram-bot-token', make: () => j(r(DIGITS, 10), ':', 'AA', r(ALNUM, 31), 'q7') },
  ];
  const vendor = drawVendorTokenSamples()
    // Whole-URL shapes are planted by the URL forms; their rule redacts a part.
    .filter(({ rule }) => rule !== 'logic-apps-webhook-signature')
    .map(({ rule }): SecretFamily => ({
      rule,
      make: () =>
        drawVendorTokenSamples().find((candidate) => candidate.rule === rule)?.value ?? '',
    }));
  return [...core, ...dedupeByRule(vendor)];
}

function dedupeByRule(families: SecretFamily[]): SecretFamily[] {
  const seen = new Set<string>();
  return families.filter(({ rule }) => !seen.has(rule) && seen.add(rule));
}

/** The vendor-context families: the vendor's word names the key, the value has the vendor's shape. */
export function vendorContextFamilies(): Array<SecretFamily & { word: string }> {
  return VENDOR_CONTEXT_TABLE.map((row) => ({
    rule: row.id,
    word: row.keywords[0] ?? '',
    make: () => fillTokenShape(row.sample, randomChars),
  }));
}

/** A made-up password for key-named forms: letters, digits and symbols people type. */
export function freshPassword(): string {
  return j(r(ALNUM, 10), '#', r(ALNUM, 6), '!', r(ALNUM, 5), 'q7');
}

const ESC = '\u001b';

/** Forms for a value that names itself: it must go whatever is around it. */
export const TOKEN_FORMS: readonly AttackForm[] = [
  { name: 'JSON', write: (v) => ({ text: `{\n  "service": {"credential": "${v}"}\n}\n` }) },
  { name: 'YAML', write: (v) => ({ text: `service:\n  credential: ${v}\n` }) },
  { name: 'YAML block scalar', write: (v) => ({ text: `service:\n  credential: >-\n    ${v}\n` }) },
  { name: '.env', write: (v) => ({ text: `SERVICE_CREDENTIAL=${v}\n` }) },
  { name: 'shell export', write: (v) => ({ text: `export SERVICE_CREDENTIAL="${v}"\n` }) },
  {
    name: 'Dockerfile ENV',
    write: (v) => ({ text: `FROM node:20\nENV SERVICE_CREDENTIAL ${v}\n` }),
  },
  {
    name: 'XML element',
    write: (v) => ({ text: `<config>\n  <credential>${v}</credential>\n</config>\n` }),
  },
  {
    name: 'URL query',
    write: (v) => ({ text: `curl "https://api.oy.test/v1/items?limit=5&auth=${v}&x=1"\n` }),
  },
  { name: 'Authorization header', write: (v) => ({ text: `Authorization: Bearer ${v}\r\n` }) },
  {
    name: 'markdown code',
    write: (v) => ({ text: `Run:\n\n\`\`\`sh\noy login --with ${v}\n\`\`\`\n` }),
  },
  { name: 'curly quotes', write: (v) => ({ text: `credential = \u201c${v}\u201d\n` }) },
  { name: 'CRLF', write: (v) => ({ text: `first line\r\ncredential: ${v}\r\nlast line\r\n` }) },
  { name: 'tabs', write: (v) => ({ text: `\tcredential\t=\t${v}\t# rotate\n` }) },
  { name: 'after ANSI escapes', write: (v) => ({ text: `${ESC}[1m${ESC}[32m${v}${ESC}[0m\n` }) },
  {
    name: 'in a log line',
    write: (v) => ({ text: `2024-05-01T10:00:00Z INFO using ${v} for upload\n` }),
  },
];

/** Forms that hold a value only by the name of its key: the name must carry it. */
export const KEY_NAMED_FORMS: readonly AttackForm[] = [
  { name: 'JSON', write: (v) => ({ text: `{"db": {"password": "${v}"}}\n` }) },
  {
    name: 'escaped JSON',
    write: (v) => ({ text: `const body = "{\\"password\\":\\"${v}\\"}";\n` }),
  },
  { name: 'YAML', write: (v) => ({ text: `db:\n  password: "${v}"\n` }) },
  { name: 'YAML block scalar', write: (v) => ({ text: `db:\n  password: |\n    ${v}\n` }) },
  { name: '.env', write: (v) => ({ text: `DB_PASSWORD=${v}\n` }) },
  { name: 'shell export', write: (v) => ({ text: `export DB_PASSWORD='${v}'\n` }) },
  { name: 'Dockerfile ENV', write: (v) => ({ text: `ENV DB_PASSWORD=${v}\n` }) },
  { name: 'Dockerfile ENV, space form', write: (v) => ({ text: `ENV DB_PASSWORD ${v}\n` }) },
  {
    name: 'XML element',
    write: (v) => ({ text: `<dataSource>\n  <password>${v}</password>\n</dataSource>\n` }),
  },
  {
    name: 'XML name attribute',
    write: (v) => ({ text: `<string name="db_password">${v}</string>\n` }),
  },
  {
    name: 'URL query',
    write: (v) => {
      const encoded = encodeURIComponent(v);
      return { text: `GET /login?user=ops&password=${encoded} HTTP/1.1\n`, pieces: [encoded] };
    },
  },
  {
    name: 'URL userinfo',
    write: (v) => {
      const encoded = encodeURIComponent(v);
      return {
        text: `DATABASE_URL=postgres://ops:${encoded}@db.internal/app\n`,
        pieces: [encoded],
      };
    },
  },
  {
    name: 'JDBC',
    write: (v) => ({ text: `jdbc:sqlserver://db:1433;databaseName=app;user=ops;password=${v};\n` }),
  },
  {
    name: 'Authorization header',
    write: (v) => {
      const encoded = Buffer.from(`ops:${v}`).toString('base64');
      return { text: `Authorization: Basic ${encoded}\n`, pieces: [encoded] };
    },
  },
  {
    name: 'base64-wrapped',
    write: (v) => {
      const encoded = Buffer.from(v).toString('base64');
      return { text: `DB_PASSWORD_B64=${encoded}\n`, pieces: [encoded] };
    },
  },
  { name: 'markdown code', write: (v) => ({ text: `\`\`\`yaml\npassword: ${v}\n\`\`\`\n` }) },
  { name: 'curly quotes', write: (v) => ({ text: `password = \u201c${v}\u201d\n` }) },
  { name: 'single curly quotes', write: (v) => ({ text: `password: \u2018${v}\u2019\n` }) },
  { name: 'CRLF', write: (v) => ({ text: `user=ops\r\npassword=${v}\r\n` }) },
  { name: 'tabs', write: (v) => ({ text: `password\t=\t"${v}"\n` }) },
  { name: 'after ANSI escapes', write: (v) => ({ text: `${ESC}[33mpassword${ESC}[0m: ${v}\n` }) },
  {
    name: 'split across string concatenation',
    write: (v) => {
      const half = Math.floor(v.length / 2);
      const pieces = [v.slice(0, half), v.slice(half)];
      return { text: `const password = "${pieces[0]}" +\n  "${pieces[1]}";\n`, pieces };
    },
  },
];

/** A token split across a concatenation: both halves must go. */
export function splitTokenForm(value: string): { text: string; pieces: string[] } {
  const half = Math.max(6, Math.floor(value.length / 2));
  const pieces = [value.slice(0, half), value.slice(half)];
  return { text: `const credential = "${pieces[0]}" + "${pieces[1]}";\n`, pieces };
}
