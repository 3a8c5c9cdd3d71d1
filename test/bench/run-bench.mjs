// `npm run bench`: P1, P2, P3, P4 and P8 from performance.md, as ratios against references measured in the same run.
// Usage: node test/bench/run-bench.mjs [corpus-dir] [--runs N]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildNodeModulesCorpus, readCorpusTexts } from './bench-corpus.mjs';

const projectRoot = path.resolve(import.meta.dirname, '..', '..');
const oyBin = path.join(projectRoot, 'bin', 'oy.js');
const args = process.argv.slice(2);
const runsFlag = args.indexOf('--runs');
const runs = runsFlag === -1 ? 3 : Number(args[runsFlag + 1]);
const corpusArg = args.find((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--runs');
const REPOMIX_VERSION = '1.14.0';

const work = mkdtempSync(path.join(tmpdir(), 'oy-bench-'));
const home = path.join(work, 'home');
mkdirSync(home);
const env = {
  ...process.env,
  HOME: home,
  XDG_CACHE_HOME: path.join(home, '.cache'),
  XDG_CONFIG_HOME: path.join(home, '.config'),
  XDG_STATE_HOME: path.join(home, '.state'),
  NO_COLOR: '1',
};
delete env.OY_MODEL;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Runs a command under GNU time: wall milliseconds and peak resident memory in KiB. */
function measure(command, commandArgs, options = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', command, ...commandArgs], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    ...options,
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0)
    throw new Error(
      `${command} ${commandArgs.join(' ')} failed (${result.status}): ${result.stderr.slice(-2000)}`,
    );
  const peakKib = Number(result.stderr.trim().split('\n').at(-1));
  return { wallMs, peakKib, stdout: result.stdout };
}

function installRepomix() {
  const prefix = path.join(tmpdir(), `oy-bench-repomix-${REPOMIX_VERSION}`);
  const bin = path.join(prefix, 'node_modules', 'repomix', 'bin', 'repomix.cjs');
  if (!existsSync(bin)) {
    console.error(`installing repomix ${REPOMIX_VERSION} into ${prefix} ...`);
    execFileSync(
      'npm',
      ['install', '--prefix', prefix, '--no-audit', '--no-fund', `repomix@${REPOMIX_VERSION}`],
      { stdio: 'ignore' },
    );
  }
  return bin;
}

const corpus = corpusArg ? path.resolve(corpusArg) : buildNodeModulesCorpus(projectRoot, work);
console.error(`corpus: ${corpus}`);
const results = { date: new Date().toISOString(), corpus, runs, node: process.version };

// P1, P2, P3: oy audit --dry-run against repomix on the same tree, interleaved runs.
const repomixBin = installRepomix();
const emptyConfig = path.join(work, 'repomix.config.json');
writeFileSync(emptyConfig, '{}\n');
const repomixArgs = [
  repomixBin,
  corpus,
  '--config',
  emptyConfig,
  '-o',
  path.join(work, 'repomix-out.txt'),
  '--style',
  'plain',
  '--no-file-summary',
  '--no-directory-structure',
  '--quiet',
];
const oyArgs = (extra) => [
  oyBin,
  'audit',
  corpus,
  '--dry-run',
  '--max-chunks',
  '100000',
  '--quiet',
  ...extra,
];
const oyCold = [];
const oyWarm = [];
const repomix = [];
let plan;
for (let run = 0; run < runs; run++) {
  rmSync(path.join(home, '.cache'), { recursive: true, force: true });
  repomix.push(measure(process.execPath, repomixArgs));
  const cold = measure(process.execPath, oyArgs(['--json']));
  plan = JSON.parse(cold.stdout);
  oyCold.push(cold);
  oyWarm.push(measure(process.execPath, oyArgs([])));
  console.error(
    `run ${run + 1}/${runs}: repomix ${repomix.at(-1).wallMs.toFixed(0)} ms, oy cold ${cold.wallMs.toFixed(0)} ms, oy warm ${oyWarm.at(-1).wallMs.toFixed(0)} ms`,
  );
}
const wall = (list) => median(list.map((item) => item.wallMs));
const peak = (list) => median(list.map((item) => item.peakKib));
results.P1 = {
  oyMs: wall(oyCold),
  repomixMs: wall(repomix),
  ratio: wall(oyCold) / wall(repomix),
  target: 0.5,
};
results.P2 = {
  oyPeakKib: peak(oyCold),
  repomixPeakKib: peak(repomix),
  ratio: peak(oyCold) / peak(repomix),
  target: 0.5,
};
results.P3 = {
  warmMs: wall(oyWarm),
  coldMs: wall(oyCold),
  ratio: wall(oyWarm) / wall(oyCold),
  target: 0.2,
};
results.corpusFiles = {
  reviewed: plan.files.reviewed,
  skipped: plan.files.skipped,
  chunks: plan.chunks.length,
};

// P4: start-up against `node -e 0`.
const startRuns = Math.max(runs * 5, 11);
const startup = { node: [], version: [], auditHelp: [] };
for (let run = 0; run < startRuns; run++) {
  startup.node.push(measure(process.execPath, ['-e', '0']).wallMs);
  startup.version.push(measure(process.execPath, [oyBin, '--version']).wallMs);
  startup.auditHelp.push(measure(process.execPath, [oyBin, 'audit', '--help']).wallMs);
}
results.P4 = {
  nodeMs: median(startup.node),
  versionMs: median(startup.version),
  auditHelpMs: median(startup.auditHelp),
  versionRatio: median(startup.version) / median(startup.node),
  auditHelpRatio: median(startup.auditHelp) / median(startup.node),
  target: 1.5,
};

// P8: redactor plus index throughput on real code, in this process (one core).
const { createRedactor } = await import(
  path.join(projectRoot, 'dist', 'safety', 'redact', 'redactor.js')
);
const { indexFile } = await import(
  path.join(projectRoot, 'dist', 'audit', 'index', 'index-file.js')
);
const texts = readCorpusTexts(corpus, {
  extensions: new Set([
    '.js',
    '.mjs',
    '.cjs',
    '.ts',
    '.mts',
    '.cts',
    '.json',
    '.md',
    '.yml',
    '.yaml',
  ]),
});
const bytes = texts.reduce((sum, item) => sum + Buffer.byteLength(item.text), 0);
const p8 = [];
for (let run = 0; run < runs; run++) {
  const started = process.hrtime.bigint();
  for (const item of texts) {
    const redacted = createRedactor().redact(item.text);
    indexFile({ path: item.path, text: redacted.text });
  }
  p8.push(bytes / 1e6 / (Number(process.hrtime.bigint() - started) / 1e9));
}
results.P8 = { megabytes: bytes / 1e6, files: texts.length, mbPerSecond: median(p8), target: 50 };

const rows = [
  [
    'P1',
    'dry-run wall time vs repomix',
    `${results.P1.oyMs.toFixed(0)} ms vs ${results.P1.repomixMs.toFixed(0)} ms`,
    results.P1.ratio.toFixed(3),
    '≤ 0.5',
    results.P1.ratio <= 0.5,
  ],
  [
    'P2',
    'peak memory vs repomix',
    `${(results.P2.oyPeakKib / 1024).toFixed(0)} MiB vs ${(results.P2.repomixPeakKib / 1024).toFixed(0)} MiB`,
    results.P2.ratio.toFixed(3),
    '≤ 0.5',
    results.P2.ratio <= 0.5,
  ],
  [
    'P3',
    'warm cache vs cold',
    `${results.P3.warmMs.toFixed(0)} ms vs ${results.P3.coldMs.toFixed(0)} ms`,
    results.P3.ratio.toFixed(3),
    '≤ 0.2',
    results.P3.ratio <= 0.2,
  ],
  [
    'P4',
    'oy --version vs node -e 0',
    `${results.P4.versionMs.toFixed(0)} ms vs ${results.P4.nodeMs.toFixed(0)} ms`,
    results.P4.versionRatio.toFixed(3),
    '≤ 1.5',
    results.P4.versionRatio <= 1.5,
  ],
  [
    'P4',
    'oy audit --help vs node -e 0',
    `${results.P4.auditHelpMs.toFixed(0)} ms vs ${results.P4.nodeMs.toFixed(0)} ms`,
    results.P4.auditHelpRatio.toFixed(3),
    '≤ 1.5',
    results.P4.auditHelpRatio <= 1.5,
  ],
  [
    'P8',
    'redact + index throughput',
    `${results.P8.megabytes.toFixed(1)} MB`,
    `${results.P8.mbPerSecond.toFixed(1)} MB/s`,
    '≥ 50 MB/s',
    results.P8.mbPerSecond >= 50,
  ],
];
const table = [
  `Benchmarks (${results.date}, ${runs} runs, medians; corpus ${results.corpusFiles.reviewed} files reviewed, ${results.corpusFiles.chunks} chunks)`,
  '',
  '| id | what | measured | ratio | target | met |',
  '|---|---|---|---|---|---|',
  ...rows.map((row) => `| ${row.slice(0, 5).join(' | ')} | ${row[5] ? 'yes' : 'NO'} |`),
].join('\n');
const outDir = path.join(projectRoot, 'bench-results');
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, 'foundation.json'), JSON.stringify(results, null, 2) + '\n');
writeFileSync(path.join(outDir, 'foundation.md'), table + '\n');
console.log(table);
rmSync(work, { recursive: true, force: true });
