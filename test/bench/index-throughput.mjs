// Throughput of the security index over real code, one core: node test/bench/index-throughput.mjs [dir] [module]
// Reads .js/.mjs/.cjs/.ts/.py/.yml/.yaml files under 1 MiB into memory first, then times indexFile over them.
import { Buffer } from 'node:buffer';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readCorpus, timeRounds } from './corpus-timing.mjs';

const root = path.resolve(process.argv[2] ?? 'node_modules');
const modulePath = path.resolve(process.argv[3] ?? 'dist/audit/hints/index-file.js');
const ROUNDS = 7;

const { indexFile } = await import(pathToFileURL(modulePath).href);
const files = readCorpus(root, /\.(?:js|mjs|cjs|ts|py|ya?ml)$/);
const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);

const {
  medianMs,
  bestMs,
  result: hints,
} = timeRounds(ROUNDS, () => {
  let count = 0;
  for (const file of files) count += indexFile(file).length;
  return count;
});
console.log(
  JSON.stringify({
    files: files.length,
    megabytes: +(bytes / 1e6).toFixed(1),
    hints,
    medianMs: +medianMs.toFixed(0),
    bestMs: +bestMs.toFixed(0),
    megabytesPerSecond: +(bytes / 1e6 / (medianMs / 1000)).toFixed(0),
  }),
);
