// `npm run bench`: P1, P2, P3, P4 and P8 (ARCHITECTURE.md "Benchmarks"), as ratios against references measured in the same run.
// Usage: node test/bench/run-bench.mjs [corpus-dir] [--runs N] [--growth-runs N] [--no-growth]
// Without a corpus-dir: the node_modules copy, the varied corpus and the real tree, plus the growth table.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildNodeModulesCorpus, readCorpusTexts } from './bench-corpus.mjs';
import { buildRealTreeCorpus } from './real-tree-corpus.mjs';
import { buildScaledCorpus, buildVariedCorpus } from './varied-corpus.mjs';

const projectRoot = path.resolve(import.meta.dirname, '..', '..');
const oyBin = path.join(projectRoot, 'bin', 'oy.js');
const args = process.argv.slice(2);
const runsFlag = args.indexOf('--runs');
const runs = runsFlag === -1 ? 3 : Number(args[runsFlag + 1]);
const corpusArg = args.find(
  (arg, index) => !arg.startsWith('--') && !['--runs', '--growth-runs'].includes(args[index - 1]),
);
const REPOMIX_VERSION = '1.14.0';
const growthFlag = args.indexOf('--growth-runs');
const growthRuns = growthFlag === -1 ? 1 : Number(args[growthFlag + 1]);
const JS_EXTENSIONS = new Set([
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
]);

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

const corpora = corpusArg
  ? [{ name: 'given', root: path.resolve(corpusArg), extensions: undefined }]
  : [
      {
        name: 'node_modules',
        root: buildNodeModulesCorpus(projectRoot, work),
        extensions: JS_EXTENSIONS,
      },
      { name: 'varied', root: buildVariedCorpus(work).corpus, extensions: undefined },
      {
        name: 'real-tree',
        root: buildRealTreeCorpus(projectRoot, work).corpus,
        extensions: undefined,
      },
    ];
const results = { date: new Date().toISOString(), runs, node: process.version, corpora: {} };
const repomixBin = installRepomix();
const emptyConfig = path.join(work, 'repomix.config.json');
writeFileSync(emptyConfig, '{}\n');
const wall = (list) => median(list.map((item) => item.wallMs));
const peak = (list) => median(list.map((item) => item.peakKib));

const oyArgs = (corpus, extra) => [
  oyBin,
  'audit',
  corpus,
  '--dry-run',
  '--max-chunks',
  '100000',
  '--quiet',
  ...extra,
];

/** P1, P2, P3: oy audit --dry-run against repomix on the same tree, interleaved runs. */
function measureCollector(name, corpus) {
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
  const oyCold = [];
  const oyWarm = [];
  const repomix = [];
  let plan;
  for (let run = 0; run < runs; run++) {
    rmSync(path.join(home, '.cache'), { recursive: true, force: true });
    repomix.push(measure(process.execPath, repomixArgs));
    const cold = measure(process.execPath, oyArgs(corpus, ['--json']));
    plan = JSON.parse(cold.stdout);
    oyCold.push(cold);
    oyWarm.push(measure(process.execPath, oyArgs(corpus, [])));
    console.error(
      `${name} run ${run + 1}/${runs}: repomix ${repomix.at(-1).wallMs.toFixed(0)} ms, oy cold ${cold.wallMs.toFixed(0)} ms, oy warm ${oyWarm.at(-1).wallMs.toFixed(0)} ms`,
    );
  }
  return {
    corpus,
    P1: {
      oyMs: wall(oyCold),
      repomixMs: wall(repomix),
      ratio: wall(oyCold) / wall(repomix),
      target: 0.5,
    },
    P2: {
      oyPeakKib: peak(oyCold),
      repomixPeakKib: peak(repomix),
      ratio: peak(oyCold) / peak(repomix),
      target: 0.5,
    },
    P3: {
      warmMs: wall(oyWarm),
      coldMs: wall(oyCold),
      ratio: wall(oyWarm) / wall(oyCold),
      target: 0.2,
    },
    files: {
      reviewed: plan.files.reviewed,
      skipped: plan.files.skipped,
      chunks: plan.chunks.length,
    },
  };
}

// P8: redactor plus index throughput on real code, in this process (one core).
const { createRedactor } = await import(
  path.join(projectRoot, 'dist', 'safety', 'redact', 'redactor.js')
);
const { indexFile } = await import(
  path.join(projectRoot, 'dist', 'audit', 'hints', 'index-file.js')
);
function measureThroughput(corpus, extensions) {
  const texts = readCorpusTexts(corpus, { extensions });
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
  return { megabytes: bytes / 1e6, files: texts.length, mbPerSecond: median(p8), target: 50 };
}

for (const { name, root, extensions } of corpora) {
  console.error(`corpus ${name}: ${root}`);
  results.corpora[name] = {
    ...measureCollector(name, root),
    P8: measureThroughput(root, extensions),
  };
}

// P4: start-up against `node -e 0` (independent of the corpus). Each oy start is paired with the
// `node -e 0` run just before it and the ratio is the median of the pairs' ratios, so a drift in
// the machine's speed during the loop (it follows the heaviest runs) moves both sides of a pair.
const startRuns = Math.max(runs * 7, 21);
const startup = { node: [], version: [], auditHelp: [] };
const pairRatios = { version: [], auditHelp: [] };
for (let run = 0; run < startRuns; run++) {
  const node = measure(process.execPath, ['-e', '0']).wallMs;
  const version = measure(process.execPath, [oyBin, '--version']).wallMs;
  const auditHelp = measure(process.execPath, [oyBin, 'audit', '--help']).wallMs;
  startup.node.push(node);
  startup.version.push(version);
  startup.auditHelp.push(auditHelp);
  pairRatios.version.push(version / node);
  pairRatios.auditHelp.push(auditHelp / node);
}
results.P4 = {
  nodeMs: median(startup.node),
  versionMs: median(startup.version),
  auditHelpMs: median(startup.auditHelp),
  versionRatio: median(pairRatios.version),
  auditHelpRatio: median(pairRatios.auditHelp),
  target: 1.5,
};

// How cost grows: the varied corpus at 1x, 2x and 4x copies, oy cold only; per-file figures should stay flat.
if (!corpusArg && !args.includes('--no-growth')) {
  results.growth = [];
  for (const copies of [1, 2, 4]) {
    const corpus = buildScaledCorpus(work, copies);
    const cold = [];
    let plan;
    for (let run = 0; run < growthRuns; run++) {
      rmSync(path.join(home, '.cache'), { recursive: true, force: true });
      const measured = measure(process.execPath, oyArgs(corpus, ['--json']));
      plan = JSON.parse(measured.stdout);
      cold.push(measured);
    }
    const files = plan.files.reviewed;
    results.growth.push({
      copies,
      files,
      wallMs: wall(cold),
      peakKib: peak(cold),
      msPerFile: wall(cold) / files,
      kibPerFile: peak(cold) / files,
    });
    console.error(
      `growth ${copies}x: ${files} files, ${wall(cold).toFixed(0)} ms, ${(peak(cold) / 1024).toFixed(0)} MiB`,
    );
  }
}

const yesNo = (met) => (met ? 'yes' : 'NO');
const rows = [];
for (const [name, r] of Object.entries(results.corpora)) {
  rows.push(
    [
      name,
      'P1',
      'dry-run wall time vs repomix',
      `${r.P1.oyMs.toFixed(0)} ms vs ${r.P1.repomixMs.toFixed(0)} ms`,
      r.P1.ratio.toFixed(3),
      '≤ 0.5',
      r.P1.ratio <= 0.5,
    ],
    [
      name,
      'P2',
      'peak memory vs repomix',
      `${(r.P2.oyPeakKib / 1024).toFixed(0)} MiB vs ${(r.P2.repomixPeakKib / 1024).toFixed(0)} MiB`,
      r.P2.ratio.toFixed(3),
      '≤ 0.5',
      r.P2.ratio <= 0.5,
    ],
    [
      name,
      'P3',
      'warm cache vs cold',
      `${r.P3.warmMs.toFixed(0)} ms vs ${r.P3.coldMs.toFixed(0)} ms`,
      r.P3.ratio.toFixed(3),
      '≤ 0.2',
      r.P3.ratio <= 0.2,
    ],
    [
      name,
      'P8',
      'redact + index throughput',
      `${r.P8.megabytes.toFixed(1)} MB`,
      `${r.P8.mbPerSecond.toFixed(1)} MB/s`,
      '≥ 50 MB/s',
      r.P8.mbPerSecond >= 50,
    ],
  );
}
rows.push(
  [
    '(any)',
    'P4',
    'oy --version vs node -e 0',
    `${results.P4.versionMs.toFixed(0)} ms vs ${results.P4.nodeMs.toFixed(0)} ms`,
    results.P4.versionRatio.toFixed(3),
    '≤ 1.5',
    results.P4.versionRatio <= 1.5,
  ],
  [
    '(any)',
    'P4',
    'oy audit --help vs node -e 0',
    `${results.P4.auditHelpMs.toFixed(0)} ms vs ${results.P4.nodeMs.toFixed(0)} ms`,
    results.P4.auditHelpRatio.toFixed(3),
    '≤ 1.5',
    results.P4.auditHelpRatio <= 1.5,
  ],
);
const corpusLine = Object.entries(results.corpora)
  .map(([name, r]) => `${name}: ${r.files.reviewed} files reviewed, ${r.files.chunks} chunks`)
  .join('; ');
const growthTable = results.growth
  ? [
      '',
      'How cost grows (varied corpus, oy audit --dry-run cold; per-file figures should stay flat)',
      '',
      '| copies | files reviewed | wall | peak memory | ms per file | KiB per file |',
      '|---|---|---|---|---|---|',
      ...results.growth.map(
        (g) =>
          `| ${g.copies}× | ${g.files} | ${g.wallMs.toFixed(0)} ms | ${(g.peakKib / 1024).toFixed(0)} MiB | ${g.msPerFile.toFixed(3)} | ${g.kibPerFile.toFixed(1)} |`,
      ),
    ]
  : [];
const table = [
  `Benchmarks (${results.date}, ${runs} runs, medians; ${corpusLine})`,
  '',
  '| corpus | id | what | measured | ratio | target | met |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((row) => `| ${row.slice(0, 6).join(' | ')} | ${yesNo(row[6])} |`),
  ...growthTable,
].join('\n');
const outDir = path.join(projectRoot, 'bench-results');
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, 'foundation.json'), JSON.stringify(results, null, 2) + '\n');
writeFileSync(path.join(outDir, 'foundation.md'), table + '\n');
console.log(table);
rmSync(work, { recursive: true, force: true });
