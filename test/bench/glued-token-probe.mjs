// Glued forms of every self-identifying token family, drawn afresh: how many leak.
// node test/bench/glued-token-probe.mjs [dist dir of the redactor under test]   (after `npm run build`)
// The families come from the rule table: every rule whose own canary, alone on a line, it redacts.
// Canaries are built by this checkout's dist with random characters; the redactor may be another
// build (a baseline), so one run counts the misses of the old and the new engine alike.
import { Buffer } from 'node:buffer';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const underTest = path.resolve(process.argv[2] ?? path.join(projectRoot, 'dist'));
const load = (dist, file) => import(pathToFileURL(path.join(dist, 'safety/redact', file)).href);
const { buildCanarySecrets } = await load(path.join(projectRoot, 'dist'), 'canary-secrets.js');
const { createRedactor } = await load(underTest, 'redactor.js');
const { REDACTION_RULE_SET, DEFAULT_RULE_SET } = await load(underTest, 'redaction-rules.js');
const { findSecretSpans } = await load(underTest, 'find-secret-spans.js');

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE64 = `${LETTERS}0123456789+/`;
const draw = (alphabet, length) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 3);

// What an attacker (or a careless concatenation) glues on: one character of each class, or a run
// of base64 (a token inside a blob's edge).
const GLUES = {
  letter: () => draw(LETTERS, 1),
  digit: () => draw('0123456789', 1),
  underscore: () => '_',
  hyphen: () => '-',
  slash: () => '/',
  plus: () => '+',
  equals: () => '=',
  base64: () => draw(BASE64, 24),
};

const line = (value) => `const blob = "${value}";\n`;
/** Whether any of three 8-character pieces of the value (start, middle, end) is still in clear. */
function leaks(redacted, value) {
  // A placeholder names its rule (`[REDACTED:rubygems-token:1]`), which may spell the prefix.
  const text = redacted.replace(/\[REDACTED:[a-z0-9-]+:\d+\]/g, '');
  const middle = Math.floor(value.length / 2) - 4;
  return [value.slice(0, 8), value.slice(middle, middle + 8), value.slice(-8)].some((piece) =>
    text.includes(piece),
  );
}

const ruleIds = new Set(REDACTION_RULE_SET.map((rule) => rule.id));
const families = new Set();
const contextRules = new Set();
const misses = new Map();
let forms = 0;
let missed = 0;
const note = (key, rule) => {
  missed += 1;
  const list = misses.get(key) ?? [];
  if (!list.includes(rule)) list.push(rule);
  misses.set(key, list);
};

for (let round = 0; round < ROUNDS; round += 1) {
  for (const canary of buildCanarySecrets(draw)) {
    if (!ruleIds.has(canary.rule)) continue;
    // The part of the value the rule hides when the value stands alone (a cookie's value, not its name).
    const alone = line(canary.value);
    const own = findSecretSpans(alone, DEFAULT_RULE_SET).find(
      (span) => span.ruleId === canary.rule,
    );
    if (own === undefined) {
      contextRules.add(canary.rule);
      continue;
    }
    families.add(canary.rule);
    const secret = alone.slice(own.start, own.end);
    for (const [name, glue] of Object.entries(GLUES)) {
      for (const side of ['before', 'after']) {
        const g = glue();
        const text = line(side === 'before' ? `${g}${canary.value}` : `${canary.value}${g}`);
        forms += 1;
        if (leaks(createRedactor().redact(text).text, secret)) note(`${side} ${name}`, canary.rule);
      }
    }
    // The token base64-encoded, with a character glued to the encoded run.
    const encoded = Buffer.from(canary.value).toString('base64');
    for (const side of ['before', 'after']) {
      const text = line(side === 'before' ? `X${encoded}` : `${encoded}X`);
      forms += 1;
      if (leaks(createRedactor().redact(text).text, encoded)) note(`base64 ${side}`, canary.rule);
    }
    const bare = createRedactor().redact(line(encoded));
    forms += 1;
    if (leaks(bare.text, encoded)) note('base64 alone', canary.rule);
  }
}

const pairs = (test) =>
  [...misses].filter(([key]) => test(key)).reduce((sum, [, rules]) => sum + rules.length, 0);
console.log(
  `glued-token probe: ${families.size} self-identifying families, ${forms} glued forms over ${ROUNDS} rounds, ${missed} leaked`,
);
console.log(
  `  family and form pairs that leaked at least once: ${pairs((key) => !key.startsWith('base64 '))} glued to a character or a base64 run (of ${families.size * 2 * Object.keys(GLUES).length}), ${pairs((key) => key.startsWith('base64 '))} base64-encoded (of ${families.size * 3})`,
);
for (const [key, rules] of [...misses].sort()) console.log(`  ${key}: ${rules.join(', ')}`);
console.log(`  rules that need context (not probed): ${[...contextRules].sort().join(', ')}`);
