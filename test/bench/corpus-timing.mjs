// Shared by the one-core throughput benchmarks: load a corpus into memory, then time rounds over it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Files under 1 MiB: larger ones are data, and the audit skips them by default. */
const MAX_FILE_BYTES = 1024 * 1024;

/** Every file under `root` whose name matches `extensions`, as `{ path, text }` (path relative to root). */
export function readCorpus(root, extensions) {
  const files = [];
  (function walk(dir) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (
        entry.isFile() &&
        extensions.test(entry.name) &&
        statSync(full).size < MAX_FILE_BYTES
      ) {
        files.push({ path: path.relative(root, full), text: readFileSync(full, 'utf8') });
      }
    }
  })(root);
  return files;
}

/** Runs `round` `rounds` times; returns the median and best wall time in ms and the last result. */
export function timeRounds(rounds, round) {
  const timesMs = [];
  let result;
  for (let index = 0; index < rounds; index += 1) {
    const start = process.hrtime.bigint();
    result = round();
    timesMs.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  timesMs.sort((a, b) => a - b);
  return { medianMs: timesMs[Math.floor(rounds / 2)], bestMs: timesMs[0], result };
}
