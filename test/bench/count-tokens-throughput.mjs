// Token counting throughput on real code, one core: oy's counter against tiktoken's own
// encode_ordinary, plus the one-off cost of createTokenCounter() in a fresh process.
// Usage (after `npm run build`): node test/bench/count-tokens-throughput.mjs [dir] [--megabytes N] [--runs N] [--dist DIR]
import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readCorpusTexts } from './bench-corpus.mjs';

const projectRoot = path.resolve(import.meta.dirname, '..', '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const megabytes = Number(flag('--megabytes', '30'));
const runs = Number(flag('--runs', '3'));
const dist = path.resolve(flag('--dist', path.join(projectRoot, 'dist')));
const corpusDir = path.resolve(
  args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--')) ??
    path.join(projectRoot, 'node_modules'),
);
const counterModule = pathToFileURL(path.join(dist, 'audit', 'tokens', 'count-tokens.js')).href;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const CODE = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);
const texts = [];
let bytes = 0;
for (const item of readCorpusTexts(corpusDir, { extensions: CODE })) {
  if (bytes >= megabytes * 1e6) break;
  texts.push(item.text);
  bytes += Buffer.byteLength(item.text);
}

const { createTokenCounter } = await import(counterModule);
const { get_encoding } = createRequire(import.meta.url)('tiktoken');

function timeMbPerSecond(run) {
  const started = process.hrtime.bigint();
  const tokens = run();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { mbPerSecond: bytes / 1e6 / seconds, tokens };
}
const sumOver = (fn) => texts.reduce((sum, text) => sum + fn(text), 0);

const results = {
  corpus: corpusDir,
  megabytes: bytes / 1e6,
  files: texts.length,
  runs,
  node: process.version,
};
for (const encoding of ['o200k_base', 'cl100k_base']) {
  const cold = [];
  const warm = [];
  const lines = [];
  const plain = [];
  let tokens = { fast: 0, plain: 0 };
  for (let run = 0; run < runs; run++) {
    const counter = createTokenCounter(encoding);
    const first = timeMbPerSecond(() => sumOver((text) => counter.count(text)));
    cold.push(first.mbPerSecond);
    warm.push(timeMbPerSecond(() => sumOver((text) => counter.count(text))).mbPerSecond);
    lines.push(
      timeMbPerSecond(() => sumOver((text) => counter.countLines(text).length)).mbPerSecond,
    );
    counter.free();
    const encoder = get_encoding(encoding);
    const exact = timeMbPerSecond(() => sumOver((text) => encoder.encode_ordinary(text).length));
    plain.push(exact.mbPerSecond);
    encoder.free();
    tokens = { fast: first.tokens, plain: exact.tokens };
  }
  results[encoding] = {
    countColdMbPerSecond: median(cold),
    countWarmMbPerSecond: median(warm),
    countLinesMbPerSecond: median(lines),
    encodeOrdinaryMbPerSecond: median(plain),
    tokens,
  };
}

// The one-off cost, in fresh processes: importing the module (should be free) and creating a counter.
const startupScript = `
  const t0 = performance.now();
  const { createTokenCounter } = await import(${JSON.stringify(counterModule)});
  const t1 = performance.now();
  const counter = createTokenCounter();
  const t2 = performance.now();
  counter.count('warm up');
  console.log(JSON.stringify({ importMs: t1 - t0, createMs: t2 - t1 }));`;
const startups = Array.from({ length: 5 }, () => {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', startupScript], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout);
});
results.startup = {
  importMs: median(startups.map((s) => s.importMs)),
  createTokenCounterMs: median(startups.map((s) => s.createMs)),
};

console.log(JSON.stringify(results, null, 2));
console.log(
  `\n| encoding | count (cold memo) | count (warm memo) | countLines | tiktoken encode_ordinary |\n|---|---|---|---|---|`,
);
for (const encoding of ['o200k_base', 'cl100k_base']) {
  const r = results[encoding];
  const cell = (value) => `${value.toFixed(1)} MB/s`;
  console.log(
    `| ${encoding} | ${cell(r.countColdMbPerSecond)} | ${cell(r.countWarmMbPerSecond)} | ${cell(r.countLinesMbPerSecond)} | ${cell(r.encodeOrdinaryMbPerSecond)} |`,
  );
}
console.log(
  `\nimport count-tokens.js: ${results.startup.importMs.toFixed(1)} ms; createTokenCounter(): ${results.startup.createTokenCounterMs.toFixed(0)} ms (median of 5 fresh processes)`,
);
