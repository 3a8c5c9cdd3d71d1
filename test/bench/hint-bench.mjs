// Hint benchmark: runs the deterministic index over the labelled corpus in test/fixtures/hint-corpus
// and prints, per category, recall of vulnerable lines (a hint of that category within ±3 lines),
// the true-positive rate over vulnerable cases, the false-positive rate over safe look-alikes, and
// Youden's index (TPR − FPR). Then it indexes the small vulnerable app in test/fixtures/hint-app
// and prints how many application-code hints sit within ±3 lines of a marked vulnerability, and
// how many marked lines have a hint of any category that near.
// Run after `npm run build`: `node test/bench/hint-bench.mjs [--json]`.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexFile } from '../../dist/audit/hints/index-file.js';
import { classifyFile } from '../../dist/audit/scope/classify-file.js';

const CORPUS = fileURLToPath(new URL('../fixtures/hint-corpus/', import.meta.url));
const APP = fileURLToPath(new URL('../fixtures/hint-app/', import.meta.url));
const WINDOW = 3;
// The marker comment that labels a vulnerable line (`// VULN`, `# VULN` or `<!-- VULN -->`); stripped before indexing.
const MARKER = /\s*(?:(?:\/\/|#)\s*VULN|<!--\s*VULN\s*-->)\s*$/;

/** A file's text without markers, and the 1-based lines that carried one. */
function readLabelled(file) {
  const vulnerableLines = [];
  const clean = readFileSync(file, 'utf8')
    .split('\n')
    .map((line, index) => {
      if (!MARKER.test(line)) return line;
      vulnerableLines.push(index + 1);
      return line.replace(MARKER, '');
    });
  return { text: clean.join('\n'), vulnerableLines };
}

function loadCases() {
  const cases = [];
  for (const category of readdirSync(CORPUS).sort()) {
    const dir = path.join(CORPUS, category);
    for (const name of readdirSync(dir).sort()) {
      cases.push({ category, name, ...readLabelled(path.join(dir, name)) });
    }
  }
  return cases;
}

function measure(cases) {
  const rows = new Map();
  const row = (category) => {
    if (!rows.has(category))
      rows.set(category, { lines: 0, found: 0, vulnerable: 0, tp: 0, safe: 0, fp: 0 });
    return rows.get(category);
  };
  const misses = [];
  for (const item of cases) {
    const hints = indexFile({ path: `${item.category}/${item.name}`, text: item.text }).filter(
      (hint) => hint.category === item.category,
    );
    const entry = row(item.category);
    if (item.vulnerableLines.length > 0) {
      entry.vulnerable++;
      let hitAll = false;
      for (const line of item.vulnerableLines) {
        entry.lines++;
        const hit = hints.some((hint) => Math.abs(hint.line - line) <= WINDOW);
        if (hit) entry.found++;
        hitAll ||= hit;
      }
      if (hitAll) entry.tp++;
      else misses.push(`missed  ${item.category}/${item.name}`);
    } else {
      entry.safe++;
      if (hints.length > 0) {
        entry.fp++;
        misses.push(
          `flagged ${item.category}/${item.name}: ${hints.map((h) => h.ruleId).join(', ')}`,
        );
      }
    }
  }
  return { rows, misses };
}

function summarise(rows) {
  const total = { lines: 0, found: 0, vulnerable: 0, tp: 0, safe: 0, fp: 0 };
  const table = [];
  for (const [category, entry] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
    for (const key of Object.keys(total)) total[key] += entry[key];
    table.push({ category, ...rates(entry) });
  }
  return { table, overall: { category: 'overall', ...rates(total) } };
}

function rates(entry) {
  const tpr = entry.vulnerable === 0 ? 0 : entry.tp / entry.vulnerable;
  const fpr = entry.safe === 0 ? 0 : entry.fp / entry.safe;
  return {
    vulnerable: entry.vulnerable,
    safe: entry.safe,
    recall: entry.lines === 0 ? 0 : entry.found / entry.lines,
    tpr,
    fpr,
    youden: tpr - fpr,
  };
}

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/** Hints on the vulnerable app: application-code hints near a marked line, and marked lines found. */
function measureApp() {
  const result = { files: 0, appHints: 0, nearVulnerability: 0, vulnerableLines: 0, found: 0 };
  const far = [];
  for (const file of listFiles(APP).sort()) {
    const relative = path.relative(APP, file).split(path.sep).join('/');
    if (relative === 'README.md') continue;
    const { text, vulnerableLines } = readLabelled(file);
    const hints = indexFile({ path: relative, text });
    const near = (hint) => vulnerableLines.some((line) => Math.abs(hint.line - line) <= WINDOW);
    result.files++;
    result.vulnerableLines += vulnerableLines.length;
    result.found += vulnerableLines.filter((line) =>
      hints.some((hint) => Math.abs(hint.line - line) <= WINDOW),
    ).length;
    if (classifyFile(relative) !== 'source') continue;
    for (const hint of hints) {
      result.appHints++;
      if (near(hint)) result.nearVulnerability++;
      else far.push(`far     ${relative}:${hint.line} ${hint.ruleId}`);
    }
  }
  return { ...result, far };
}

const cases = loadCases();
const measured = measure(cases);
const result = summarise(measured.rows);
const app = measureApp();
const share = (part, whole) => (whole === 0 ? 0 : part / whole);
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ ...result, app }, null, 2));
} else {
  const format = (value) => value.toFixed(2).padStart(6);
  console.log(`hint benchmark: ${cases.length} cases`);
  console.log('category                  vuln  safe  recall    TPR    FPR  Youden');
  for (const line of [...result.table, result.overall])
    console.log(
      `${line.category.padEnd(24)} ${String(line.vulnerable).padStart(5)} ${String(line.safe).padStart(5)} ${format(line.recall)} ${format(line.tpr)} ${format(line.fpr)} ${format(line.youden)}`,
    );
  console.log(
    `vulnerable app: ${app.files} files; ${app.nearVulnerability} of ${app.appHints} application-code hints within ±${WINDOW} lines of a marked vulnerability (${share(app.nearVulnerability, app.appHints).toFixed(2)}); ${app.found} of ${app.vulnerableLines} marked lines have a hint that near (${share(app.found, app.vulnerableLines).toFixed(2)})`,
  );
  if (process.argv.includes('--verbose'))
    for (const line of [...measured.misses, ...app.far]) console.log(line);
}
