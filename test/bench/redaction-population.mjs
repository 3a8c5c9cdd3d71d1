// How often the redactor's "made up" heuristics fire on values that are long and random:
// node test/bench/redaction-population.mjs [per-family count]   (after `npm run build`)
// Every token family, in the contexts it is written in, with values drawn afresh from the system's
// random source; then the value checks alone (placeholder, word shape, generic plausibility) on
// random populations. A miss is a random value left in clear. Targets: no miss at all.
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const distModule = (file) =>
  import(pathToFileURL(path.join(projectRoot, 'dist/safety/redact', file)).href);
const { createRedactor } = await distModule('redactor.js');
const { isPlaceholderValue } = await distModule('is-placeholder-value.js');
const { looksLikeWords } = await distModule('looks-like-words.js');
const { isPlausibleSecret } = await distModule('is-plausible-secret.js');
const { VENDOR_TOKEN_SHAPES, fillTokenShape } = await distModule('rules/vendor-token-shapes.js');
const { VENDOR_TOKEN_TABLE } = await distModule('rules/vendor-token-table.js');
const { VENDOR_CONTEXT_TABLE } = await distModule('rules/vendor-context-table.js');

const PER_FAMILY = Number(process.argv[2] ?? 20_000);
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const BASE32 = `${UPPER}234567`;
const SYMBOLS = '!#$%&*+-./:=?@^_~';
const draw = (alphabet, length) => {
  let out = '';
  for (let index = 0; index < length; index += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
};
const fill = (shape) => fillTokenShape(shape, draw);

// The core token families (their formats live in code, not in the tables).
const CORE = {
  'aws-access-key-id': () => `AKIA${draw(BASE32, 16)}`,
  'google-api-key': () => `AIza${draw(`${ALNUM}_-`, 35)}`,
  'github-token': () => `ghp_${draw(ALNUM, 36)}`,
  'gitlab-token': () => `glpat-${draw(`${ALNUM}_-`, 20)}`,
  'npm-token': () => `npm_${draw(ALNUM, 36)}`,
  'slack-token': () => `xoxb-${draw(DIGITS, 12)}-${draw(DIGITS, 13)}-${draw(ALNUM, 24)}`,
  'stripe-live-key': () => `sk_live_${draw(ALNUM, 24)}`,
  'anthropic-api-key': () => `sk-ant-api03-${draw(`${ALNUM}_-`, 93)}AA`,
  'openai-api-key': () => `sk-proj-${draw(`${ALNUM}_-`, 74)}${'T3Blbk'}FJ${draw(`${ALNUM}_-`, 74)}`,
  'sendgrid-api-key': () => `SG.${draw(`${ALNUM}_-`, 22)}.${draw(`${ALNUM}_-`, 43)}`,
  'mailgun-api-key': () => `key-${draw(HEX, 32)}`,
  'telegram-bot-token': () => `${draw(DIGITS, 10)}:AA${draw(`${ALNUM}_-`, 33)}`,
};

function families() {
  const out = Object.entries(CORE).map(([rule, make]) => ({ rule, make, gluedAfter: false }));
  for (const [rule, shape] of Object.entries(VENDOR_TOKEN_SHAPES)) {
    const row = VENDOR_TOKEN_TABLE.find((candidate) => candidate.id === rule);
    out.push({ rule, make: () => fill(shape), gluedAfter: row?.takesGluedTail ?? false });
  }
  return out;
}

// A value told only by its key name, in the forms that name carries.
const AWS_SECRET_CONTEXTS = {
  'aws_secret_access_key =': (value) => `aws_secret_access_key = ${value}\n`,
  'AWS_SECRET_ACCESS_KEY=': (value) => `AWS_SECRET_ACCESS_KEY=${value}\n`,
  '"SecretAccessKey":': (value) => `{"SecretAccessKey": "${value}"}\n`,
};

// Contexts a token is written in; `glued` ones only for the families that take glue there.
const CONTEXTS = {
  alone: (value) => `${value}\n`,
  assigned: (value) => `token = "${value}"\n`,
  env: (value) => `export SERVICE_TOKEN=${value}\n`,
};

function missRate(make, context, isRemoved) {
  let misses = 0;
  const redactor = createRedactor();
  for (let index = 0; index < PER_FAMILY; index += 1) {
    const value = make();
    if (!isRemoved(redactor.redact(context(value)).text, value)) misses += 1;
  }
  return misses;
}

const isGone = (text, value) => !text.includes(value);
const report = [];
const note = (name, misses, total) => {
  report.push({ name, misses, total });
  if (misses > 0) console.log(`  MISS ${name}: ${misses}/${total}`);
};

console.log(`redaction population: ${PER_FAMILY} fresh values per family and context`);
for (const { rule, make, gluedAfter } of families()) {
  for (const [name, context] of Object.entries(CONTEXTS)) {
    note(`${rule} ${name}`, missRate(make, context, isGone), PER_FAMILY);
  }
  if (gluedAfter) {
    note(
      `${rule} glued after`,
      missRate(make, (v) => `x = ${v}Xy\n`, isGone),
      PER_FAMILY,
    );
  }
}
for (const [name, context] of Object.entries(AWS_SECRET_CONTEXTS)) {
  const make = () => draw(`${ALNUM}+/`, 40);
  note(`aws-secret-access-key ${name}`, missRate(make, context, isGone), PER_FAMILY);
}
for (const row of VENDOR_CONTEXT_TABLE) {
  const word = row.keywords[0];
  note(
    `${row.id} after its vendor's name`,
    missRate(
      () => fill(row.sample),
      (v) => `${word}: "${v}"\n`,
      isGone,
    ),
    PER_FAMILY,
  );
}

// Generic assignments: random passwords of every common alphabet and length.
const PASSWORDS = {
  'letters and digits, 8': () => draw(ALNUM, 8),
  'letters and digits, 12': () => draw(ALNUM, 12),
  'letters and digits, 16': () => draw(ALNUM, 16),
  'letters and digits, 32': () => draw(ALNUM, 32),
  'lower case and digits, 16': () => draw(LOWER + DIGITS, 16),
  'lower case, 20': () => draw(LOWER, 20),
  'mixed-case letters, 16': () => draw(UPPER + LOWER, 16),
  'hex, 16': () => draw(HEX, 16),
  'hex, 24': () => draw(HEX, 24),
  'hex, 40': () => draw(HEX, 40),
  'base64, 88': () => draw(`${ALNUM}+/`, 88),
  'with symbols, 12': () => draw(ALNUM + SYMBOLS, 12),
  'with symbols, 20': () => draw(ALNUM + SYMBOLS, 20),
};
for (const [name, make] of Object.entries(PASSWORDS)) {
  note(
    `password = "<${name}>"`,
    missRate(make, (v) => `password = "${v}"\n`, isGone),
    PER_FAMILY,
  );
  note(
    `DB_PASSWORD=<${name}>`,
    missRate(make, (v) => `DB_PASSWORD=${v}\n`, isGone),
    PER_FAMILY,
  );
  note(
    `api_token: <${name}> (YAML)`,
    missRate(make, (v) => `svc:\n  api_token: ${v}\n`, isGone),
    PER_FAMILY,
  );
}

// The value checks alone, on random values that hold a typed run or word by chance.
const checks = [];
for (const run of ['12345', 'abcdef', 'a1b2c3', '1a2b3c', 'qwerty', 'aBcDeF']) {
  for (const [alphabet, length] of [
    [HEX, 40],
    [ALNUM, 32],
    [`${ALNUM}_-`, 43],
  ]) {
    checks.push([
      `isPlaceholderValue: ${length} random with "${run}" inside`,
      () => {
        const value = draw(alphabet, length);
        const at = 1 + randomInt(length - run.length - 1);
        return isPlaceholderValue(value.slice(0, at) + run + value.slice(at + run.length));
      },
    ]);
  }
}
for (const [name, alphabet, length] of [
  ['mixed-case letters', UPPER + LOWER, 16],
  ['lower-case letters', LOWER, 16],
  ['mixed-case letters', UPPER + LOWER, 24],
]) {
  checks.push([
    `looksLikeWords: random ${name}, ${length}`,
    () => looksLikeWords(draw(alphabet, length)),
  ]);
}
for (const [name, make] of Object.entries(PASSWORDS)) {
  checks.push([`isPlausibleSecret refuses random ${name}`, () => !isPlausibleSecret(make(), true)]);
}
for (const [name, fires] of checks) {
  let count = 0;
  for (let index = 0; index < PER_FAMILY; index += 1) if (fires()) count += 1;
  note(name, count, PER_FAMILY);
}

const total = report.reduce((sum, row) => sum + row.total, 0);
const misses = report.reduce((sum, row) => sum + row.misses, 0);
console.log(
  `redaction population: ${report.length} populations, ${total} values, ${misses} misses (${((100 * misses) / total).toFixed(4)}%); target 0: ${misses === 0 ? 'met' : 'NOT met'}`,
);
