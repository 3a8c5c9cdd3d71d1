// Recall and precision of the redactor on public scanner test data, plus false alarms on real code:
// node test/bench/secret-corpus-bench.mjs [corpus.json] [code dir]   (after `npm run build`)
// The corpus is read in place (../shared/data/secret-corpus/ from the project root) and never copied.
import { Buffer } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readCorpus } from './corpus-timing.mjs';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpusPath = path.resolve(process.argv[2] ?? findSharedCorpus(projectRoot));
const codeRoot = path.resolve(process.argv[3] ?? path.join(projectRoot, 'node_modules'));
const distModule = (file) =>
  import(pathToFileURL(path.join(projectRoot, 'dist/safety/redact', file)).href);
const { createRedactor } = await distModule('redactor.js');
const { findSecretSpans } = await distModule('find-secret-spans.js');
const { DEFAULT_RULE_SET } = await distModule('redaction-rules.js');

// The bars the redactor is held to (recall and rates in percent; placeholders per MiB of code).
const TARGETS = {
  overallRecall: 97,
  trufflehogRecall: 75,
  bareRecall: 90,
  falsePositiveRate: 1.5,
  placeholdersPerMiB: 0.1,
};

/** `../shared/data/secret-corpus/corpus.json` from the project root, or from a folder above it (worktrees). */
function findSharedCorpus(start) {
  const relative = 'shared/data/secret-corpus/corpus.json';
  for (let dir = path.dirname(start); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, relative))) return path.join(dir, relative);
    if (path.dirname(dir) === dir) return path.join(path.dirname(start), relative);
  }
}

// A "clear" false positive is a labelled non-secret where the redactor replaced a value that is not
// credential-shaped: prose, a type or identifier, a stand-in made of typed runs or example words.
// Values that are random enough to be a key but fail one scanner's exact format (wrong length, a
// near-miss prefix) are not counted: hiding them costs nothing and is the safe error. The judge is
// written here, apart from the redactor, so that the redactor cannot grade itself.
const STAND_IN_WORD =
  /example|sample|dummy|fake|placeholder|notreal|notarealkey|changeme|your|insert|replace|random|here|x{4}|\*{3}|\.{3}/i;
const MIN_CREDENTIAL_CHARS = 8;
const MIN_CREDENTIAL_ENTROPY_BITS = 3;
const SHORT_CREDENTIAL_ENTROPY_BITS = 2.5;
const MAX_TYPED_RUN_SHARE = 0.4;

function isCredentialShaped(value) {
  if (value.includes('-----BEGIN')) return true;
  if (value.length < MIN_CREDENTIAL_CHARS || /\s/.test(value)) return false;
  if (STAND_IN_WORD.test(value) || typedRunShare(value) >= MAX_TYPED_RUN_SHARE) return false;
  const floor = value.length < 12 ? SHORT_CREDENTIAL_ENTROPY_BITS : MIN_CREDENTIAL_ENTROPY_BITS;
  if (entropyBits(value) < floor) return false;
  return !readsAsWords(value);
}

/** Letters only, in pieces of four or more with English's share of vowels: `SlackAppConfigToken`. */
function readsAsWords(value) {
  if (/[0-9]/.test(value)) return false;
  const letters = value.replace(/[^A-Za-z]/g, '');
  const pieces = letters.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g) ?? [];
  if (pieces.length === 0 || letters.length / pieces.length < 4) return false;
  return (letters.match(/[aeiouy]/gi) ?? []).length / letters.length >= 0.3;
}

/** Share of characters in runs of three or more that count up or down by one or repeat (`abc`, `321`, `xxx`). */
function typedRunShare(value) {
  const covered = new Uint8Array(value.length);
  let start = 0;
  for (let index = 1; index <= value.length; index += 1) {
    const step = value.charCodeAt(index) - value.charCodeAt(index - 1);
    const previous = index >= 2 ? value.charCodeAt(index - 1) - value.charCodeAt(index - 2) : NaN;
    const continues =
      index < value.length &&
      Math.abs(step) <= 1 &&
      /[A-Za-z0-9]/.test(value[index]) &&
      (index - start < 2 || step === previous);
    if (continues) continue;
    if (index - start >= 3) covered.fill(1, start, index);
    start = index;
  }
  return covered.reduce((sum, flag) => sum + flag, 0) / Math.max(1, value.length);
}

function entropyBits(value) {
  const counts = new Map();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values())
    bits -= (count / value.length) * Math.log2(count / value.length);
  return bits;
}

// Non-secrets an independent measurement (issue 27) judged clear false positives: word-shaped values
// with a real vendor prefix, stand-ins marked by typed runs or words, values a scanner's test made
// invalid on purpose. Any redaction in one of these rows counts as a clear false positive here too,
// whatever the judge above says, so the bench cannot grade itself more kindly than that list.
const INDEPENDENT_CLEAR_FALSE_POSITIVE_IDS = new Set(
  [
    ['de', '2a16a6c714 6a4b9642cd 8475f79e51 d2c48d9bb3 f3057789de fe5eaf294f'],
    ['gi', 'c21cd102b3 df84aea8d2 1f74061c9e 30736fa793 8da39acb08'],
    ['se', '03e4ea8549'],
    [
      'tr',
      '792472ddfe 5eda618168 c2ec5b0de7 0be5846d74 d4a7859983 1886d4a786 c6b34bd1d0 47ca76a724 ed1928eeb6 0ce2aa4bba 6976197143 564622629c 443413d0ee bd6d9c2908',
    ],
  ].flatMap(([source, ids]) => ids.split(' ').map((id) => `${source}-${id}`)),
);

const percent = (part, whole) => (whole === 0 ? 0 : (100 * part) / whole);
const verdict = (met) => (met ? 'met' : 'NOT met');

function scoreCorpus(items) {
  const redactor = createRedactor();
  const bySource = new Map();
  const missedKinds = new Map();
  let flagged = 0;
  let clearlyFlagged = 0;
  let nonSecrets = 0;
  const clearExamples = [];
  const listedFlagged = [];
  for (const item of items) {
    if (item.label === 'non-secret') {
      nonSecrets += 1;
      const spans = findSecretSpans(item.text, DEFAULT_RULE_SET);
      if (spans.length > 0) flagged += 1;
      const wrong = spans.find(
        (span) => !isCredentialShaped(item.text.slice(span.start, span.end)),
      );
      const isListed = INDEPENDENT_CLEAR_FALSE_POSITIVE_IDS.has(item.id);
      if (isListed && spans.length > 0) listedFlagged.push(`${item.id} ${spans[0].ruleId}`);
      if (wrong !== undefined || (isListed && spans.length > 0)) {
        clearlyFlagged += 1;
        clearExamples.push(`${item.id} ${item.source}/${item.kind} ${(wrong ?? spans[0]).ruleId}`);
      }
      continue;
    }
    const { text } = redactor.redact(item.text);
    if (item.class !== 'credential' || typeof item.secret !== 'string') continue;
    const tally = bySource.get(item.source) ?? { total: 0, removed: 0, missedByKind: new Map() };
    tally.total += 1;
    const isRemoved = !text.includes(item.secret);
    if (isRemoved) tally.removed += 1;
    tally.missedByKind.set(
      item.kind,
      (tally.missedByKind.get(item.kind) ?? 0) + (isRemoved ? 0 : 1),
    );
    if (!isRemoved)
      missedKinds.set(
        `${item.source}/${item.kind}`,
        (missedKinds.get(`${item.source}/${item.kind}`) ?? 0) + 1,
      );
    bySource.set(item.source, tally);
  }
  return {
    bySource,
    missedKinds,
    flagged,
    clearlyFlagged,
    clearExamples,
    listedFlagged,
    nonSecrets,
  };
}

function scoreCode(root) {
  if (!existsSync(root)) return undefined;
  const files = readCorpus(root, /\.(?:js|mjs|cjs|ts|json|md)$/);
  const redactor = createRedactor();
  let bytes = 0;
  let placeholders = 0;
  for (const file of files) {
    bytes += Buffer.byteLength(file.text);
    placeholders += redactor.redact(file.text).redactions.length;
  }
  return { files: files.length, mebibytes: bytes / 2 ** 20, placeholders };
}

if (!existsSync(corpusPath)) {
  console.log(`secret corpus: skipped, ${corpusPath} is absent (see its README for the format)`);
} else {
  const { items } = JSON.parse(readFileSync(corpusPath, 'utf8'));
  const {
    bySource,
    missedKinds,
    flagged,
    clearlyFlagged,
    clearExamples,
    listedFlagged,
    nonSecrets,
  } = scoreCorpus(items);
  let total = 0;
  let removed = 0;
  console.log('secret corpus: credential recall by source');
  for (const [source, tally] of [...bySource].sort()) {
    total += tally.total;
    removed += tally.removed;
    console.log(
      `  ${source.padEnd(16)} ${percent(tally.removed, tally.total).toFixed(1).padStart(5)}%  (${tally.removed}/${tally.total})`,
    );
  }
  const overall = percent(removed, total);
  const trufflehog = bySource.get('trufflehog') ?? { total: 0, removed: 0 };
  const bare = bySource.get('gitleaks-bare') ?? { total: 0, removed: 0, missedByKind: new Map() };
  bare.kinds = bare.missedByKind.size;
  bare.kindsAllRemoved = [...bare.missedByKind.values()].filter((missed) => missed === 0).length;
  const falsePositives = percent(clearlyFlagged, nonSecrets);
  const bareRecall = percent(bare.removed, bare.total);
  console.log(
    `  ${'overall'.padEnd(16)} ${overall.toFixed(1).padStart(5)}%  (${removed}/${total})`,
  );
  console.log(
    `  self-identifying tokens alone on a line (gitleaks-bare): ${bareRecall.toFixed(1)}% (${bare.removed}/${bare.total}); kinds all removed: ${bare.kindsAllRemoved}/${bare.kinds}`,
  );
  console.log(
    `  clear false positives on non-secrets (a value that is not credential-shaped replaced): ${falsePositives.toFixed(2)}% (${clearlyFlagged}/${nonSecrets})`,
  );
  console.log(
    `  of them, rows on the independent list (issue 27) still redacted: ${listedFlagged.length}/${INDEPENDENT_CLEAR_FALSE_POSITIVE_IDS.size}${listedFlagged.length > 0 ? ` (${listedFlagged.join(', ')})` : ''}`,
  );
  console.log(
    `  non-secrets with any redaction (most are random values one scanner's format refuses): ${percent(flagged, nonSecrets).toFixed(1)}% (${flagged}/${nonSecrets})`,
  );
  if (process.env.BENCH_SHOW_MISSES) {
    for (const example of clearExamples) console.log(`    clear false positive ${example}`);
  }
  if (process.env.BENCH_SHOW_MISSES) {
    const top = [...missedKinds]
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(process.env.BENCH_SHOW_MISSES) || 40);
    for (const [kind, count] of top) console.log(`    missed ${count} ${kind}`);
  }
  console.log('secret corpus: targets');
  console.log(
    `  overall recall >= ${TARGETS.overallRecall}%: ${verdict(overall >= TARGETS.overallRecall)}`,
  );
  console.log(
    `  trufflehog recall >= ${TARGETS.trufflehogRecall}%: ${verdict(percent(trufflehog.removed, trufflehog.total) >= TARGETS.trufflehogRecall)}`,
  );
  console.log(
    `  self-identifying tokens alone on a line >= ${TARGETS.bareRecall}%: ${verdict(bareRecall >= TARGETS.bareRecall)}`,
  );
  console.log(
    `  clear false positives <= ${TARGETS.falsePositiveRate}%: ${verdict(falsePositives <= TARGETS.falsePositiveRate)}`,
  );
}

if (process.env.BENCH_SKIP_CODE) process.exit(0);
const code = scoreCode(codeRoot);
if (code === undefined) {
  console.log(`false alarms on code: skipped, ${codeRoot} is absent`);
} else {
  const perMiB = code.placeholders / code.mebibytes;
  console.log(
    `false alarms on code: ${code.placeholders} placeholders in ${code.mebibytes.toFixed(0)} MiB (${code.files} files) = ${perMiB.toFixed(3)} per MiB; < ${TARGETS.placeholdersPerMiB}: ${verdict(perMiB < TARGETS.placeholdersPerMiB)}`,
  );
}
