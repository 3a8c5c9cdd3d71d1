// The history scan (`--history`): commits/s and MB/s on a generated 2,000-commit repository and on
// a real history, plus the added-lines step against the `diff` package on the same file versions.
// Usage: node test/bench/history-bench.mjs [real-repo-dir] (default: a clone of this project).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { diffArrays } from 'diff';

const projectRoot = path.resolve(import.meta.dirname, '..', '..');
const dist = (file) => path.join(projectRoot, 'dist', file);
const { scanHistory } = await import(dist('audit/history/scan-history.js'));
const { findAddedLines } = await import(dist('audit/history/find-added-lines.js'));
const { createRedactor } = await import(dist('safety/redact/redactor.js'));
const { buildGitEnvironment } = await import(dist('shared/git/build-git-environment.js'));

const COMMITS = 2000;
const FILES = 200;
const work = mkdtempSync(path.join(tmpdir(), 'oy-history-bench-'));
const gitEnv = buildGitEnvironment({ PATH: process.env.PATH }, {});

/** 2,000 commits through fast-import: each edits 1-3 of 200 small files; every 100th plants a key. */
function generateRepository(dir) {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  const files = Array.from({ length: FILES }, (_, index) =>
    Array.from({ length: 40 }, (_, line) => `const value${line} = compute(${index}, ${line});`),
  );
  const chunks = [];
  for (let commit = 0; commit < COMMITS; commit++) {
    const message = `change ${commit}`;
    chunks.push(
      `commit refs/heads/main\nmark :${commit + 1}\ncommitter bench <b@bench.invalid> ${1_700_000_000 + commit} +0000\n`,
      `data ${Buffer.byteLength(message)}\n${message}\n`,
    );
    if (commit > 0) chunks.push(`from :${commit}\n`);
    const touched =
      commit === 0
        ? files.map((_, index) => index)
        : [0, 1, 2].slice(0, 1 + (commit % 3)).map((k) => (commit * 7 + k * 13) % FILES);
    for (const index of touched) {
      const lines = files[index];
      lines[(commit * 11) % lines.length] =
        `const value = compute(${commit}, ${randomBytes(4).toString('hex')});`;
      if (commit % 100 === 50)
        lines.push(
          `const token = "ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}";`,
        );
      const text = `${lines.join('\n')}\n`;
      chunks.push(
        `M 100644 inline src/file-${index}.js\ndata ${Buffer.byteLength(text)}\n${text}\n`,
      );
    }
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join('') });
  execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir });
}

async function measure(label, root) {
  const redactor = createRedactor();
  const started = process.hrtime.bigint();
  const { report } = await scanHistory({
    root,
    gitEnv,
    since: null,
    maxFileBytes: 1024 * 1024,
    include: [],
    exclude: [],
    redact: (text) => redactor.redact(text),
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    history: label,
    commits: report.commits,
    blobs: report.blobs,
    megabytes: +(report.bytes / 1e6).toFixed(1),
    secrets: report.secrets.length,
    seconds: +seconds.toFixed(2),
    commitsPerSecond: Math.round(report.commits / seconds),
    megabytesPerSecond: +(report.bytes / 1e6 / seconds).toFixed(1),
  };
}

/** The old and new text of each file a commit modified (up to 3,000 pairs), read with plain git. */
function readModifiedPairs(root) {
  const log = execFileSync(
    'git',
    ['log', '--no-renames', '--raw', '--no-abbrev', '--format=', '--diff-filter=M', '-n', '3000'],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const ids = log
    .split('\n')
    .map((line) => /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) M\t/.exec(line))
    .filter(Boolean)
    .slice(0, 3000);
  const input = ids.flatMap((match) => [match[1], match[2]]).join('\n') + '\n';
  const out = execFileSync('git', ['cat-file', '--batch'], {
    cwd: root,
    input,
    maxBuffer: 1 << 30,
  });
  const texts = [];
  let at = 0;
  while (at < out.length) {
    const newline = out.indexOf(10, at);
    const size = Number(out.subarray(at, newline).toString('latin1').split(' ')[2]);
    texts.push(out.subarray(newline + 1, newline + 1 + size).toString('utf8'));
    at = newline + 1 + size + 1;
  }
  const pairs = [];
  for (let index = 0; index + 1 < texts.length; index += 2)
    pairs.push([texts[index], texts[index + 1]]);
  return pairs;
}

function compareAddedLines(label, pairs) {
  const split = pairs.map(([before, after]) => [before.split('\n'), after.split('\n')]);
  const time = (run) => {
    const started = process.hrtime.bigint();
    let added = 0;
    for (const [before, after] of split) added += run(before, after);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, added };
  };
  const lineSet = time((before, after) => findAddedLines(after, [new Set(before)]).length);
  const myers = time((before, after) =>
    diffArrays(before, after).reduce(
      (sum, part) => sum + (part.added ? (part.count ?? part.value.length) : 0),
      0,
    ),
  );
  return {
    history: label,
    pairs: pairs.length,
    lineSetMs: +lineSet.ms.toFixed(1),
    diffPackageMs: +myers.ms.toFixed(1),
    diffOverLineSet: +(myers.ms / lineSet.ms).toFixed(1),
    addedLines: { lineSet: lineSet.added, diffPackage: myers.added },
  };
}

try {
  const generated = path.join(work, 'generated');
  generateRepository(generated);
  const realArg = process.argv[2];
  let real = realArg ? path.resolve(realArg) : path.join(work, 'real');
  if (!realArg)
    execFileSync('git', ['clone', '-q', '--no-local', projectRoot, real], { stdio: 'ignore' });
  if (!existsSync(real)) real = null;
  const rows = [await measure('generated 2,000 commits', generated)];
  if (real) rows.push(await measure(path.basename(realArg ?? 'this project'), real));
  console.table(rows);
  console.log(JSON.stringify(rows));
  const diffRows = [compareAddedLines('generated', readModifiedPairs(generated))];
  if (real) diffRows.push(compareAddedLines('real', readModifiedPairs(real)));
  console.table(diffRows);
  console.log(JSON.stringify(diffRows));
  console.log('gitleaks: not installable here (no npm or Debian package); no comparison row.');
} finally {
  rmSync(work, { recursive: true, force: true });
}
