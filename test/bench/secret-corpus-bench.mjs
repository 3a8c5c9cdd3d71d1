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
const { createRedactor } = await import(
  pathToFileURL(path.join(projectRoot, 'dist/safety/redact/redactor.js')).href
);

// The bars the redactor is held to (recall and rates in percent; placeholders per MiB of code).
const TARGETS = {
  overallRecall: 93,
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

const percent = (part, whole) => (whole === 0 ? 0 : (100 * part) / whole);
const verdict = (met) => (met ? 'met' : 'NOT met');

function scoreCorpus(items) {
  const redactor = createRedactor();
  const bySource = new Map();
  const missedKinds = new Map();
  let flagged = 0;
  let nonSecrets = 0;
  for (const item of items) {
    const { text, redactions } = redactor.redact(item.text);
    if (item.label === 'non-secret') {
      nonSecrets += 1;
      if (redactions.length > 0) flagged += 1;
      continue;
    }
    if (item.class !== 'credential' || typeof item.secret !== 'string') continue;
    const tally = bySource.get(item.source) ?? { total: 0, removed: 0 };
    tally.total += 1;
    if (!text.includes(item.secret)) tally.removed += 1;
    else
      missedKinds.set(
        `${item.source}/${item.kind}`,
        (missedKinds.get(`${item.source}/${item.kind}`) ?? 0) + 1,
      );
    bySource.set(item.source, tally);
  }
  return { bySource, missedKinds, flagged, nonSecrets };
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
  const { bySource, missedKinds, flagged, nonSecrets } = scoreCorpus(items);
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
  const bare = bySource.get('gitleaks-bare') ?? { total: 0, removed: 0 };
  const falsePositives = percent(flagged, nonSecrets);
  console.log(
    `  ${'overall'.padEnd(16)} ${overall.toFixed(1).padStart(5)}%  (${removed}/${total})`,
  );
  console.log(
    `  false positives on non-secrets: ${falsePositives.toFixed(2)}% (${flagged}/${nonSecrets})`,
  );
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
    `  gitleaks-bare recall >= ${TARGETS.bareRecall}%: ${verdict(percent(bare.removed, bare.total) >= TARGETS.bareRecall)}`,
  );
  console.log(
    `  false positives <= ${TARGETS.falsePositiveRate}%: ${verdict(falsePositives <= TARGETS.falsePositiveRate)}`,
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
