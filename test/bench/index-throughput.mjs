// Throughput of the security index over real code, one core: node test/bench/index-throughput.mjs [dir] [module]
// Reads .js/.mjs/.cjs/.ts/.py/.yml/.yaml files under 1 MiB into memory first, then times indexFile over them.
import { Buffer } from 'node:buffer';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(process.argv[2] ?? 'node_modules');
const modulePath = path.resolve(process.argv[3] ?? 'dist/audit/index/index-file.js');
const MAX_FILE_BYTES = 1024 * 1024;
const ROUNDS = 7;
const EXTENSIONS = /\.(?:js|mjs|cjs|ts|py|ya?ml)$/;

const { indexFile } = await import(pathToFileURL(modulePath).href);
const files = [];
(function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (
      entry.isFile() &&
      EXTENSIONS.test(entry.name) &&
      statSync(full).size < MAX_FILE_BYTES
    ) {
      files.push({ path: path.relative(root, full), text: readFileSync(full, 'utf8') });
    }
  }
})(root);
const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);

const timesMs = [];
let hints = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  hints = 0;
  const start = process.hrtime.bigint();
  for (const file of files) hints += indexFile(file).length;
  timesMs.push(Number(process.hrtime.bigint() - start) / 1e6);
}
timesMs.sort((a, b) => a - b);
const medianMs = timesMs[Math.floor(ROUNDS / 2)];
console.log(
  JSON.stringify({
    files: files.length,
    megabytes: +(bytes / 1e6).toFixed(1),
    hints,
    medianMs: +medianMs.toFixed(0),
    bestMs: +timesMs[0].toFixed(0),
    megabytesPerSecond: +(bytes / 1e6 / (medianMs / 1000)).toFixed(0),
  }),
);
