// The sandbox's cost per command on a large workspace (SECURITY.md "Secret-bearing files are
// unreadable"): listing secret-bearing files and git directories before each command, as ratios
// against a sandboxed `true` on an empty workspace measured in the same run.
// Usage: npm run build && node test/bench/sandbox-scan-bench.mjs [files] [--runs N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const projectRoot = path.resolve(import.meta.dirname, '..', '..');
const { planSandbox, refreshSandboxPlan, reviewSandboxRun } = await import(
  path.join(projectRoot, 'dist/agent/shell/sandbox.js')
);
const { scanWorkspace } = await import(
  path.join(projectRoot, 'dist/agent/shell/scan-workspace.js')
);
const { runSupervised } = await import(
  path.join(projectRoot, 'dist/agent/shell/run-supervised.js')
);

const args = process.argv.slice(2);
const runsFlag = args.indexOf('--runs');
const runs = runsFlag === -1 ? 5 : Number(args[runsFlag + 1]);
const files = Number(
  args.find((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--runs') ?? 50_000,
);

// Under /var/tmp: the sandbox's private /tmp would hide a workspace under /tmp.
const work = mkdtempSync('/var/tmp/oy-scan-bench-');
const home = path.join(work, 'home');
const empty = path.join(work, 'empty');
const big = path.join(work, 'big');
mkdirSync(home);
mkdirSync(empty);
const perFolder = 20;
const folders = Math.ceil(files / perFolder);
for (let folder = 0; folder < folders; folder += 1) {
  const dir = path.join(big, `d${Math.floor(folder / 50)}`, `e${folder % 50}`);
  mkdirSync(dir, { recursive: true });
  for (let file = 0; file < perFolder && folder * perFolder + file < files; file += 1)
    writeFileSync(path.join(dir, `f${file}.js`), 'x');
}
writeFileSync(path.join(big, '.env'), 'KEY=x\n');
writeFileSync(path.join(big, 'd3', '.env.local'), 'KEY=y\n');
spawnSync('git', ['init', '-q'], { cwd: big });
const env = { PATH: process.env.PATH, HOME: home };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
async function time(work) {
  const samples = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** What the bash tool does per command: plan (for the preview), lay out, run, review. */
async function sandboxedTrue(workspace) {
  const preview = await planSandbox('on', workspace, env, false, undefined, false);
  const plan = await refreshSandboxPlan(preview, workspace, env);
  await runSupervised({ command: 'true', cwd: workspace, timeoutMs: 60_000, env, sandbox: plan });
  return reviewSandboxRun(plan, workspace, env);
}

const reference = await time(() => sandboxedTrue(empty));
const first = (() => {
  const start = performance.now();
  const scan = scanWorkspace(big);
  return { ms: performance.now() - start, scan };
})();
const cached = await time(() => scanWorkspace(big));
let touched = 0;
const changed = await time(() => {
  // One folder changed between two commands (a file added), as after an edit.
  touched += 1;
  writeFileSync(path.join(big, 'd1', 'e1', `new${touched}.js`), 'x');
  return scanWorkspace(big);
});
const whole = await time(() => sandboxedTrue(big));
utimesSync(big, new Date(), new Date());

console.log(`sandbox scan bench: ${files} files in ${folders} folders, median of ${runs} runs`);
console.log(`  reference, sandboxed true on an empty workspace: ${reference.toFixed(1)} ms`);
console.log(
  `  first scan (nothing cached): ${first.ms.toFixed(1)} ms, ${first.scan.entries} entries, ${first.scan.secretFiles.length} secret files, ${first.scan.gitEntries.length} git entries`,
);
console.log(
  `  scan again, nothing changed: ${cached.toFixed(1)} ms (${(cached / reference).toFixed(2)}x the reference)`,
);
console.log(
  `  scan again, one folder changed: ${changed.toFixed(1)} ms (${(changed / reference).toFixed(2)}x)`,
);
console.log(
  `  sandboxed true on the large workspace (plan, scan, git control, run, review): ${whole.toFixed(1)} ms (${(whole / reference).toFixed(2)}x the reference)`,
);
rmSync(work, { recursive: true, force: true });
