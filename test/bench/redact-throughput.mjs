// Throughput of the secret redactor over real code, one core: node test/bench/redact-throughput.mjs [dir] [module]
// Reads .js/.mjs/.cjs/.ts/.json/.md files under 1 MiB into memory first, then times redact over them.
import { Buffer } from 'node:buffer';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readCorpus, timeRounds } from './corpus-timing.mjs';

const root = path.resolve(process.argv[2] ?? 'node_modules');
const modulePath = path.resolve(process.argv[3] ?? 'dist/safety/redact/redactor.js');
const ROUNDS = 5;

const { createRedactor } = await import(pathToFileURL(modulePath).href);
const files = readCorpus(root, /\.(?:js|mjs|cjs|ts|json|md)$/);
const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);

const {
  medianMs,
  bestMs,
  result: redactions,
} = timeRounds(ROUNDS, () => {
  // One redactor per round, as an audit run has one.
  const redactor = createRedactor();
  let count = 0;
  for (const file of files) count += redactor.redact(file.text).redactions.length;
  return count;
});
console.log(
  JSON.stringify({
    files: files.length,
    megabytes: +(bytes / 1e6).toFixed(1),
    redactions,
    medianMs: +medianMs.toFixed(0),
    bestMs: +bestMs.toFixed(0),
    megabytesPerSecond: +(bytes / 1e6 / (medianMs / 1000)).toFixed(0),
  }),
);
