// P5, P6, P7 (ARCHITECTURE.md "Benchmarks"): the model review against the fake provider at a fixed latency.
// Usage: node test/bench/review-bench.mjs [--latency-ms N] [--runs N]   (after npm run build)
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const projectRoot = path.resolve(import.meta.dirname, '..', '..');
const oyBin = path.join(projectRoot, 'bin', 'oy.js');
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const LATENCY_MS = option('--latency-ms', 2000);
const RUNS = option('--runs', 3);
const CONCURRENCY = 8;
const MODEL = 'anthropic::claude-haiku-4-5';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Starts the standalone fake with a script; resolves with its URL and a stop function. */
function startFake(script, logFile) {
  const scriptFile = `${logFile}.script.json`;
  writeFileSync(scriptFile, JSON.stringify(script));
  const child = spawn(
    process.execPath,
    [
      path.join(projectRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      path.join(projectRoot, 'test', 'fakes', 'serve-fake-provider.ts'),
      '--script',
      scriptFile,
      '--port',
      '0',
      '--log',
      logFile,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (data) => {
      out += data;
      const match = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match)
        resolve({
          url: match[1],
          stop: () =>
            new Promise((done) => {
              child.on('close', done);
              child.kill('SIGTERM');
            }),
        });
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`fake exited early (${code})`)));
  });
}

function readLog(logFile) {
  try {
    return readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'oy-review-bench-'));
const repo = path.join(work, 'repo');
cpSync(path.join(projectRoot, 'node_modules', 'eslint', 'lib'), path.join(repo, 'eslint-lib'), {
  recursive: true,
});
const env = (url, cache) => ({
  ...process.env,
  HOME: work,
  XDG_CACHE_HOME: cache,
  XDG_CONFIG_HOME: path.join(work, 'config'),
  ANTHROPIC_API_KEY: 'fake-key',
  ANTHROPIC_BASE_URL: url,
  NO_COLOR: '1',
});
const oy = (extra, url, cache) => {
  const started = process.hrtime.bigint();
  const result = spawnSync(
    process.execPath,
    [oyBin, 'audit', '--model', MODEL, '--concurrency', String(CONCURRENCY), '--quiet', ...extra],
    { cwd: repo, env: env(url, cache), encoding: 'utf8' },
  );
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, ...result };
};

const plan = JSON.parse(
  oy(['--dry-run', '--json'], 'http://127.0.0.1:9', path.join(work, 'c0')).stdout,
);
const chunks = plan.chunks.length;
const contentTokens = plan.chunks.reduce((sum, chunk) => sum + chunk.tokens, 0);
const floorMs = Math.ceil(chunks / CONCURRENCY) * LATENCY_MS;
const answer = (latencyMs) => ({
  kind: 'answer',
  text: '{"findings": []}',
  usage: { inputTokens: 1000, outputTokens: 10 },
  latencyMs,
});

const p5 = [];
let p6 = null;
for (let run = 0; run < RUNS; run++) {
  const cache = path.join(work, `cache-${run}`);
  const offline = oy(['--offline', '--out', 'offline.md'], 'http://127.0.0.1:9', cache);
  const logFile = path.join(work, `log-${run}.jsonl`);
  const fake = await startFake(
    Array.from({ length: chunks }, () => answer(LATENCY_MS)),
    logFile,
  );
  const model = oy(['--out', 'model.md', '--no-cache'], fake.url, cache);
  await fake.stop();
  if (model.status !== 0) throw new Error(`model run failed (${model.status}): ${model.stderr}`);
  const reviewMs = model.ms - offline.ms;
  p5.push(reviewMs / floorMs);
  console.error(
    `run ${run + 1}/${RUNS}: ${chunks} chunks, review phase ${reviewMs.toFixed(0)} ms, floor ${floorMs} ms`,
  );
  if (p6 === null) {
    const { createTokenCounter } = await import(
      path.join(projectRoot, 'dist', 'audit', 'tokens', 'count-tokens.js')
    );
    const counter = createTokenCounter('o200k_base');
    const calls = readLog(logFile).filter((request) => request.path === '/v1/messages');
    const sent = calls.reduce((sum, request) => {
      const system = (request.body.system ?? []).map((block) => block.text).join('');
      const user = request.body.messages
        .map((message) =>
          typeof message.content === 'string'
            ? message.content
            : message.content.map((block) => block.text ?? '').join(''),
        )
        .join('');
      return sum + counter.count(system) + counter.count(user);
    }, 0);
    counter.free();
    p6 = { sentTokens: sent, contentTokens, ratio: sent / contentTokens, calls: calls.length };
  }
}

// P7: warm cache, change one file, audit again: count map and reduce calls.
const cache = path.join(work, 'cache-p7');
const warmLog = path.join(work, 'p7-warm.jsonl');
let fake = await startFake(
  Array.from({ length: chunks }, () => answer(0)),
  warmLog,
);
const warm = oy(['--out', 'warm.md'], fake.url, cache);
await fake.stop();
if (warm.status !== 0) throw new Error(`warm-up run failed: ${warm.stderr}`);
appendFileSync(path.join(repo, 'eslint-lib', 'api.js'), '\n// one changed file\n');
const afterLog = path.join(work, 'p7-after.jsonl');
fake = await startFake(
  [answer(0), answer(0), { kind: 'answer', text: '{"summary": "", "order": [], "merge": []}' }],
  afterLog,
);
const after = oy(['--out', 'after.md'], fake.url, cache);
await fake.stop();
const afterCalls = readLog(afterLog).filter((request) => request.path === '/v1/messages');
// Map requests carry the chunk between the run's data delimiters; the reduce request does not.
const isMap = (request) => JSON.stringify(request.body).includes('=====OY-DATA-');
const p7 = {
  mapCalls: after.status === 0 ? afterCalls.filter(isMap).length : null,
  reduceCalls: afterCalls.filter((request) => !isMap(request)).length,
  status: after.status,
};

const results = {
  date: new Date().toISOString(),
  chunks,
  latencyMs: LATENCY_MS,
  concurrency: CONCURRENCY,
  P5: { ratio: median(p5), floorMs, target: 1.15 },
  P6: { ...p6, target: 1.15 },
  P7: { ...p7, target: 'map ≤ 2, reduce ≤ 1' },
};
const table = [
  `Review benchmarks (${results.date}; ${chunks} chunks of eslint/lib, fake provider at ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, median of ${RUNS})`,
  '',
  '| id | what | measured | target | met |',
  '|---|---|---|---|---|',
  `| P5 | map phase vs ceil(chunks/8) × latency | ${results.P5.ratio.toFixed(3)} × (floor ${floorMs} ms) | ≤ 1.15 | ${results.P5.ratio <= 1.15 ? 'yes' : 'NO'} |`,
  `| P6 | map input tokens vs reviewed content | ${p6.sentTokens} vs ${p6.contentTokens} = ${p6.ratio.toFixed(3)} | ≤ 1.15 | ${p6.ratio <= 1.15 ? 'yes' : 'NO'} |`,
  `| P7 | calls after a one-file change, cache warm | ${p7.mapCalls} map, ${p7.reduceCalls} reduce | ≤ 2 map, ≤ 1 reduce | ${p7.mapCalls !== null && p7.mapCalls <= 2 && p7.reduceCalls <= 1 ? 'yes' : 'NO'} |`,
].join('\n');
const outDir = path.join(projectRoot, 'bench-results');
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, 'review.json'), JSON.stringify(results, null, 2) + '\n');
writeFileSync(path.join(outDir, 'review.md'), table + '\n');
console.log(table);
rmSync(work, { recursive: true, force: true });
