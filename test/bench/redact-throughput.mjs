// Throughput of the secret redactor over real code, one core: node test/bench/redact-throughput.mjs [dir] [module]
// Reads .js/.mjs/.cjs/.ts/.json/.md files under 1 MiB into memory first, then times redact over them.
import { Buffer } from 'node:buffer';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(process.argv[2] ?? 'node_modules');
const modulePath = path.resolve(process.argv[3] ?? 'dist/safety/redact/redactor.js');
const MAX_FILE_BYTES = 1024 * 1024;
const ROUNDS = 5;
const EXTENSIONS = /\.(?:js|mjs|cjs|ts|json|md)$/;

const { createRedactor } = await import(pathToFileURL(modulePath).href);
const texts = [];
(function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (
      entry.isFile() &&
      EXTENSIONS.test(entry.name) &&
      statSync(full).size < MAX_FILE_BYTES
    ) {
      texts.push(readFileSync(full, 'utf8'));
    }
  }
})(root);
const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);

const timesMs = [];
let redactions = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  // One redactor per round, as an audit run has one.
  const redactor = createRedactor();
  redactions = 0;
  const start = process.hrtime.bigint();
  for (const text of texts) redactions += redactor.redact(text).redactions.length;
  timesMs.push(Number(process.hrtime.bigint() - start) / 1e6);
}
timesMs.sort((a, b) => a - b);
const medianMs = timesMs[Math.floor(ROUNDS / 2)];
console.log(
  JSON.stringify({
    files: texts.length,
    megabytes: +(bytes / 1e6).toFixed(1),
    redactions,
    medianMs: +medianMs.toFixed(0),
    bestMs: +timesMs[0].toFixed(0),
    megabytesPerSecond: +(bytes / 1e6 / (medianMs / 1000)).toFixed(0),
  }),
);
