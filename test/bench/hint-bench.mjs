// Hint benchmark: runs the deterministic index over the labelled corpus in test/fixtures/hint-corpus
// and prints, per category, recall of vulnerable lines (a hint of that category within ±3 lines),
// the true-positive rate over vulnerable cases, the false-positive rate over safe look-alikes, and
// Youden's index (TPR − FPR). Run after `npm run build`: `node test/bench/hint-bench.mjs [--json]`.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexFile } from '../../dist/audit/hints/index-file.js';

const CORPUS = fileURLToPath(new URL('../fixtures/hint-corpus/', import.meta.url));
const WINDOW = 3;
// The marker comment that labels a vulnerable line; stripped before indexing.
const MARKER = /\s*(?:\/\/|#)\s*VULN\s*$/;

function loadCases() {
  const cases = [];
  for (const category of readdirSync(CORPUS).sort()) {
    const dir = path.join(CORPUS, category);
    for (const name of readdirSync(dir).sort()) {
      const lines = readFileSync(path.join(dir, name), 'utf8').split('\n');
      const vulnerableLines = [];
      const clean = lines.map((line, index) => {
        if (!MARKER.test(line)) return line;
        vulnerableLines.push(index + 1);
        return line.replace(MARKER, '');
      });
      cases.push({ category, name, text: clean.join('\n'), vulnerableLines });
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
    } else {
      entry.safe++;
      if (hints.length > 0) entry.fp++;
    }
  }
  return rows;
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

const cases = loadCases();
const result = summarise(measure(cases));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(result, null, 2));
} else {
  const format = (value) => value.toFixed(2).padStart(6);
  console.log(`hint benchmark: ${cases.length} cases`);
  console.log('category                  vuln  safe  recall    TPR    FPR  Youden');
  for (const line of [...result.table, result.overall])
    console.log(
      `${line.category.padEnd(24)} ${String(line.vulnerable).padStart(5)} ${String(line.safe).padStart(5)} ${format(line.recall)} ${format(line.tpr)} ${format(line.fpr)} ${format(line.youden)}`,
    );
}
