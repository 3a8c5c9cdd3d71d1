// Held-out measurement of the hint index on public labelled corpora kept OUTSIDE the repository
// (default /tmp/hint-corpora, or HINT_CORPORA). Nothing here is committed but this reader; the
// corpora are copied by hand from stored public repositories (see docs/benchmarks.md, "Hints").
//
// Layout it reads:
//   benchmark-python/labels.csv           name,category,real,total_chars   (OWASP BenchmarkPython)
//   benchmark-python/testcode/<name>.json a JSON string: the file without its 667-character licence header
//   benchmark-java/labels.csv             name,category,real,total_chars   (OWASP BenchmarkJava v1.2)
//   benchmark-java/testcode/<name>.json   a JSON string: the file without its licence header
//   semgrep-rules/*.json                  {path, category, total_chars, text}: a semgrep-rules test target,
//                                         `ruleid:` / `ok:` comments label the statement below them
//   juice-shop/*.json                     {path, total_chars, text}: a Juice Shop source file whose
//                                         `vuln-code-snippet vuln-line` comments label vulnerable lines
//   gosec/*.json                          {repo, path, commit, offset, total_chars, text}: one read of a
//                                         gosec `testutils/gNNN_samples.go` (at most 16,000 characters
//                                         from offset); the reads of a file are joined in order of
//                                         offset, and a sample cut off at the end of the last is not read
//   njsscan/*.json                        {repo, path, commit, total_chars, text}: an njsscan test file,
//                                         `node_source/true_positives/` (vulnerable) or `true_negatives/`
//   sard-php/licence.json                 {repo, path, commit, text}: the licence comment every SARD PHP
//                                         file holds, read once
//   sard-php/<NNN>.json                   {repo, path, commit, total_chars, head, body}: a SARD PHP test
//                                         case (progpilot `projects/tests/tests/sard/NNN/`), the file
//                                         being head + licence + body
//
// OWASP Benchmark cases are scored as OWASP's scorecards do: a case is flagged when the file holds a
// hint of the case's category; TPR over real vulnerabilities, FPR over safe cases, Youden = TPR - FPR;
// the overall figure is the mean of the category Youdens. A semgrep case is the labelled statement and
// the lines after it up to the next label or top-level line (at most 25); flagged when a hint of the
// file's category lies in it.
//
// gosec samples (Go, per case): each `{[]string{`src`, ...}, N, gosec.NewConfig()}` entry is a case,
// vulnerable when gosec expects N > 0 issues of the file's rule, safe when N = 0; flagged when any of
// its sources holds a hint of the rule's category (GOSEC_RULES below, which also narrows G402).
// Entries with another config or a `#nosec` marker are not read, nor an expected 0 whose comment says
// gosec's analysis misses it (GOSEC_KNOWN_MISS: the code is vulnerable). gosec counts `os.Args` and
// `os.Getenv` as tainted; those cases are kept.
// njsscan test files (JavaScript, per file): a file under `true_positives/` is a vulnerable case and one
// under `true_negatives/` a safe case of the category NJSSCAN_FILES gives it; flagged when the file
// holds a hint of that category. Per-category TPR, FPR and Youden as for the OWASP Benchmark.
// SARD PHP test cases (per file): the file's own header says "Safe sample" or "Unsafe sample"; the
// weakness is the CWE its name starts with (SARD_PHP_CWES); flagged when the file holds a hint of that
// category. The suite's input is a command's output or a file (`exec`, backticks), not a request.
//
// Run after a build: `node test/bench/public-corpora.mjs [--dist <dir>] [--json] [--verbose]`.
// `--dist` points at another build's dist/ (for "before" figures from a worktree of an older commit).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const ROOT = process.env.HINT_CORPORA ?? '/tmp/hint-corpora';
const DIST = path.resolve(
  option('--dist') ?? fileURLToPath(new URL('../../dist/', import.meta.url)),
);
const { indexFile } = await import(
  pathToFileURL(path.join(DIST, 'audit/hints/index-file.js')).href
);

/** OWASP Benchmark category names to hint categories, with a rule filter where two share one. */
const BENCHMARK_CATEGORIES = {
  pathtraver: { category: 'path-traversal' },
  sqli: { category: 'sql-injection' },
  xpathi: { category: 'xpath-injection' },
  xxe: { category: 'xxe' },
  weakrand: { category: 'weak-crypto', rule: /random/ },
  hash: { category: 'weak-crypto', rule: /hash/ },
  crypto: { category: 'weak-crypto', rule: /cipher|ecb/ },
  securecookie: { category: 'insecure-cookie' },
  redirect: { category: 'open-redirect' },
  trustbound: { category: 'trust-boundary' },
  codeinj: { category: 'dynamic-code' },
  ldapi: { category: 'ldap-injection' },
  deserialization: { category: 'unsafe-deserialization' },
  xss: { category: 'xss' },
  cmdi: { category: 'command-execution' },
};

function readLabels(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^\w+,/.test(line))
    .map((line) => {
      const [name, category, real, totalChars] = line.split(',');
      return { name, category, isReal: real === 'true', totalChars: Number(totalChars) };
    });
}

function emptyRow() {
  return { vulnerable: 0, tp: 0, safe: 0, fp: 0 };
}

/** Counts one labelled case in its category's row, and notes a miss or a false alarm. */
function countCase(row, notes, { isVulnerable, found, where, detail = '' }) {
  if (isVulnerable) {
    row.vulnerable++;
    if (found) row.tp++;
    else notes.push(`missed  ${where}`);
  } else {
    row.safe++;
    if (found) {
      row.fp++;
      notes.push(`flagged ${where}${detail}`);
    }
  }
}

const hintList = (hints) => `: ${hints.map((h) => `${h.ruleId}@${h.line}`).join(', ')}`;

function rates(row) {
  const tpr = row.vulnerable === 0 ? 0 : row.tp / row.vulnerable;
  const fpr = row.safe === 0 ? 0 : row.fp / row.safe;
  return { ...row, tpr, fpr, youden: tpr - fpr };
}

/** An OWASP Benchmark tree: one labelled file per case. */
function measureBenchmark(dir, extension, headerChars) {
  const labels = readLabels(path.join(dir, 'labels.csv'));
  const rows = new Map();
  const notes = [];
  for (const label of labels) {
    const mapping = BENCHMARK_CATEGORIES[label.category];
    if (mapping === undefined) continue;
    const text = JSON.parse(readFileSync(path.join(dir, 'testcode', `${label.name}.json`), 'utf8'));
    if (headerChars !== undefined && text.length + headerChars !== label.totalChars)
      throw new Error(
        `${label.name}: ${text.length} characters, expected ${label.totalChars - headerChars}`,
      );
    const hints = indexFile({ path: `testcode/${label.name}.${extension}`, text }).filter(
      (hint) =>
        hint.category === mapping.category &&
        (mapping.rule === undefined || mapping.rule.test(hint.ruleId)),
    );
    const row = rows.get(label.category) ?? emptyRow();
    rows.set(label.category, row);
    countCase(row, notes, {
      isVulnerable: label.isReal,
      found: hints.length > 0,
      where: `${label.name} ${label.category}`,
      detail: hintList(hints),
    });
  }
  return { rows, notes };
}

const ANNOTATION = /^\s*(?:#|\/\/)\s*(ruleid|ok)\b/;
const MAX_CASE_LINES = 25;

/** Semgrep-rules test targets: each `ruleid:` or `ok:` comment labels the statement below it. */
function measureSemgrep(dir) {
  const rows = new Map();
  const notes = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const item = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    if (item.text.length !== item.total_chars)
      throw new Error(`${name}: ${item.text.length} characters, expected ${item.total_chars}`);
    const lines = item.text.split('\n');
    const extension = path.extname(item.path);
    const hints = indexFile({ path: `semgrep${extension}`, text: item.text }).filter(
      (hint) => hint.category === item.category,
    );
    const row = rows.get(item.category) ?? emptyRow();
    rows.set(item.category, row);
    for (let index = 0; index < lines.length; index++) {
      const match = ANNOTATION.exec(lines[index]);
      if (match === null) continue;
      let start = index + 1;
      while (start < lines.length && ANNOTATION.test(lines[start])) start++;
      let end = start;
      while (
        end + 1 < lines.length &&
        end + 1 - start < MAX_CASE_LINES &&
        !ANNOTATION.test(lines[end + 1]) &&
        !/^\S/.test(lines[end + 1])
      )
        end++;
      const found = hints.some((hint) => hint.line >= start + 1 && hint.line <= end + 1);
      const where = `${item.path}:${start + 1}`;
      countCase(row, notes, { isVulnerable: match[1] === 'ruleid', found, where });
    }
  }
  return { rows, notes };
}

/**
 * gosec rules read, to hint categories. Not read: G101 (credential patterns by variable name), G204 and
 * G304 (any non-constant argument, a linter's policy), G201/G202 (format strings, superseded by G701),
 * and rules with no hint category (G104, G106-G115, G301-G307, G601, G706 and the rest).
 */
const GOSEC_RULES = {
  G203: { category: 'xss' },
  G401: { category: 'weak-crypto' },
  // G402's protocol-version and cipher-suite samples have no hint category: only verification is read.
  G402: { category: 'tls-verification', only: /InsecureSkipVerify/ },
  G404: { category: 'weak-crypto' },
  G701: { category: 'sql-injection' },
  G702: { category: 'command-execution' },
  G703: { category: 'path-traversal' },
  G704: { category: 'ssrf' },
  G705: { category: 'xss' },
};
const READ_FILE_CHARS = 16_000;
const GOSEC_SAMPLE =
  /\{\s*\[\]string\{((?:\s*`[^`]*`\s*,?)+)\s*\}\s*,\s*(\d+)\s*,\s*(gosec\.NewConfig\(\)|[^}]*?)\s*\}/g;
// gosec's own comments on an expected 0 that its analysis misses (the code is vulnerable); a 0 whose
// comment names a limitation but whose code is safe (a constant) is read as safe.
const GOSEC_KNOWN_MISS =
  /doesn't track|does not track|documents the limitation|documented limitation|have limitations|not fully tracked|does not yet follow/i;

/** Reads of one file, in order of offset, joined; stops when a read is missing or of the wrong length. */
function joinReads(name, reads) {
  reads.sort((a, b) => a.offset - b.offset);
  let text = '';
  for (const read of reads) {
    if (read.offset !== text.length || read.commit !== reads[0].commit)
      throw new Error(
        `${name}: read at ${read.offset} (${read.commit}) after ${text.length} characters`,
      );
    const expected = Math.min(READ_FILE_CHARS, read.total_chars - read.offset);
    if (read.text.length !== expected)
      throw new Error(
        `${name}@${read.offset}: ${read.text.length} characters, expected ${expected}`,
      );
    text += read.text;
  }
  return text;
}

/** gosec `testutils/gNNN_samples.go`: one case per sample, labelled by its expected issue count. */
function measureGosec(dir) {
  const rows = new Map();
  const notes = [];
  const files = new Map();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const item = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    files.set(item.path, [...(files.get(item.path) ?? []), item]);
  }
  for (const [file, reads] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const text = joinReads(file, reads);
    if (text.length < reads[0].total_chars)
      notes.push(`read ${text.length} of ${reads[0].total_chars} characters of ${file}`);
    const rule = /g(\d{3})_samples/.exec(file)?.[1];
    const mapping = GOSEC_RULES[`G${rule}`];
    if (mapping === undefined) throw new Error(`no category for ${file}`);
    const { category, only } = mapping;
    const row = rows.get(category) ?? { ...emptyRow(), rules: new Set() };
    rows.set(category, row);
    row.rules.add(`G${rule}`);
    let previousEnd = 0;
    let index = 0;
    for (const match of text.matchAll(GOSEC_SAMPLE)) {
      // A sample's comments are the lines above it and the rest of its closing line.
      const lineEnd = text.indexOf('\n', match.index + match[0].length);
      const end = lineEnd === -1 ? text.length : lineEnd;
      const comment =
        text.slice(previousEnd, match.index) + text.slice(match.index + match[0].length, end);
      previousEnd = end;
      index++;
      const sources = [...match[1].matchAll(/`([^`]*)`/g)].map((m) => m[1]);
      const where = `G${rule}#${index}`;
      if (match[3] !== 'gosec.NewConfig()' || sources.some((s) => /#nosec|gosec:disable/.test(s)))
        continue;
      if (only !== undefined && !sources.some((s) => only.test(s))) continue;
      if (Number(match[2]) === 0 && GOSEC_KNOWN_MISS.test(comment)) {
        notes.push(`not read ${where}: the 0 is a gosec limitation`);
        continue;
      }
      const found = sources.some((source, part) =>
        indexFile({ path: `sample${index}_${part}.go`, text: source }).some(
          (hint) => hint.category === category,
        ),
      );
      countCase(row, notes, { isVulnerable: Number(match[2]) > 0, found, where });
    }
  }
  for (const row of rows.values()) row.rules = [...row.rules].sort().join(' ');
  return { rows, notes };
}

/**
 * njsscan test files read, to hint categories: the category of the njsscan rule the file was written
 * for. A file that is an older copy of another under a new name is read once, as the newer
 * (`xss_handlebars.js` as `xss_templates.js`, `handlebars_escape.js` as `safe_templates.js`,
 * `strong_crypto.js` as `safe_crypto.js`), and `semantic_grep/` copies of files at the top level are
 * not read. Not read, no hint category: helmet and other headers, header and host-header injection,
 * body-parser, regex and loop DoS, error disclosure, timing attacks, Electron settings, logic checks,
 * `express_hbs_lfr`, XML entity expansion (expat, a DoS), gRPC without TLS, Sequelize without TLS or
 * with a weak TLS version, buffer checks, passport, JWT exposed data or credentials and revocation.
 */
const NJSSCAN_FILES = {
  'exec_os_command.js': 'command-execution',
  'hardcoded_os_command.js': 'command-execution',
  'safe_shelljs.js': 'command-execution',
  'eval_node.js': 'dynamic-code',
  'eval_sandbox.js': 'dynamic-code',
  'eval_vm2_injection.js': 'dynamic-code',
  'hardcoded_evals.js': 'dynamic-code',
  'safe_require.js': 'dynamic-code',
  'safe_sandbox.js': 'dynamic-code',
  'safe_vm.js': 'dynamic-code',
  'safe_vm2.js': 'dynamic-code',
  'eval_deserialize.js': 'unsafe-deserialization',
  'eval_yaml_deserialize.js': 'unsafe-deserialization',
  'serialize.js': 'unsafe-deserialization',
  'yaml_safe_load.js': 'unsafe-deserialization',
  'sqli_node.js': 'sql-injection',
  'sql_injection_knex.js': 'sql-injection',
  'safe_sql.js': 'sql-injection',
  'safe_sql_knex.js': 'sql-injection',
  'path_traversal.js': 'path-traversal',
  'archive_path_overwrite.js': 'path-traversal',
  'safe_traversal.js': 'path-traversal',
  'safe_archive_extract.js': 'path-traversal',
  'safe_path_join_resolve.js': 'path-traversal',
  'open_redirect.js': 'open-redirect',
  'safe_redirect.js': 'open-redirect',
  'ssrf_node.js': 'ssrf',
  'ssrf_wkhtmltoimage.js': 'ssrf',
  'ssrf_wkhtmltopdf.js': 'ssrf',
  'http_client_node.js': 'ssrf',
  'safe_phantomjs.js': 'ssrf',
  'safe_playwright.js': 'ssrf',
  'safe_puppeteer.js': 'ssrf',
  'safe_wkhtmltoimage.js': 'ssrf',
  'safe_wkhtmltopdf.js': 'ssrf',
  'xpathi_node.js': 'xpath-injection',
  'safe_xpath.js': 'xpath-injection',
  'nosql_injection.js': 'nosql-injection',
  'nosql_find_injection.js': 'nosql-injection',
  'safe_nosql.js': 'nosql-injection',
  'safe_nosql_find.js': 'nosql-injection',
  'xss_node.js': 'xss',
  'xss_templates.js': 'xss',
  'xss_dom.js': 'xss',
  'safe_html_node.js': 'xss',
  'safe_templates.js': 'xss',
  'safe_mustache_escape.js': 'xss',
  'safe_seralize_js.js': 'xss',
  'safe_xss_dom.js': 'xss',
  'server_side_template_injection.js': 'template-injection',
  'safe_template_rendering.js': 'template-injection',
  'jwt_none_algorithm.js': 'jwt',
  'safe_jwt_algorithm.js': 'jwt',
  'hardcoded_jwt.js': 'hardcoded-credential',
  'hardcoded_secrets.js': 'hardcoded-credential',
  'jwt_express_hardcoded.js': 'hardcoded-credential',
  'safe_creds_node.js': 'hardcoded-credential',
  'safe_jwt_express.js': 'hardcoded-credential',
  'safe_jwt_token.js': 'hardcoded-credential',
  'header_cors_star.js': 'cors',
  'cors_header.js': 'cors',
  'safe_cors_header.js': 'cors',
  'header_cookie.js': 'insecure-cookie',
  'safe_header_cookie.js': 'insecure-cookie',
  'crypto_node.js': 'weak-crypto',
  'safe_crypto.js': 'weak-crypto',
  'sequelize_tls_validation.js': 'tls-verification',
  'safe_sequelize_tls_validation.js': 'tls-verification',
  'tls_node.js': 'tls-verification',
  'xxe_node.js': 'xxe',
  'safe_sax.js': 'xxe',
  'safe_xml2json.js': 'xxe',
  'safe_xml_parsing.js': 'xxe',
};

/** njsscan `tests/assets/node_source/true_{positives,negatives}/`: one case per file. */
function measureNjsscan(dir) {
  const rows = new Map();
  const notes = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const item = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    if (item.text.length !== item.total_chars)
      throw new Error(`${name}: ${item.text.length} characters, expected ${item.total_chars}`);
    const category = NJSSCAN_FILES[path.basename(item.path)];
    const isReal = item.path.includes('/true_positives/');
    if (category === undefined || (!isReal && !item.path.includes('/true_negatives/')))
      throw new Error(`${name}: no category or label for ${item.path}`);
    const row = rows.get(category) ?? emptyRow();
    rows.set(category, row);
    const hints = indexFile({ path: path.basename(item.path), text: item.text }).filter(
      (hint) => hint.category === category,
    );
    countCase(row, notes, {
      isVulnerable: isReal,
      found: hints.length > 0,
      where: item.path,
      detail: hintList(hints),
    });
  }
  return { rows, notes };
}

/**
 * NIST SARD PHP suite (Stivalet, 2015) weaknesses read, to hint categories. CWE-98 is a file included by
 * a tainted name, read as path traversal. Others in the suite (CWE-79, CWE-601 and the rest) are not in
 * the files read; a file of another weakness stops the run.
 */
const SARD_PHP_CWES = {
  CWE_78: 'command-execution',
  CWE_89: 'sql-injection',
  CWE_90: 'ldap-injection',
  CWE_91: 'xpath-injection',
  CWE_95: 'dynamic-code',
  CWE_98: 'path-traversal',
};
const SARD_LABEL = /^(Safe|Unsafe) sample$/m;

/** SARD PHP test cases (progpilot's copy): one case per file, labelled by its own header. */
function measureSardPhp(dir) {
  const rows = new Map();
  const notes = [];
  const licence = JSON.parse(readFileSync(path.join(dir, 'licence.json'), 'utf8')).text;
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json') && n !== 'licence.json')
    .sort()) {
    const item = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    const text = item.head + licence + item.body;
    if (text.length !== item.total_chars)
      throw new Error(`${name}: ${text.length} characters, expected ${item.total_chars}`);
    const label = SARD_LABEL.exec(item.head)?.[1];
    const category = SARD_PHP_CWES[/\/(CWE_\d+)__/.exec(item.path)?.[1]];
    if (label === undefined || category === undefined)
      throw new Error(`${name}: no label or category for ${item.path}`);
    const row = rows.get(category) ?? emptyRow();
    rows.set(category, row);
    const found = indexFile({ path: `sard/${path.basename(item.path)}`, text }).some(
      (hint) => hint.category === category,
    );
    countCase(row, notes, { isVulnerable: label === 'Unsafe', found, where: name });
  }
  return { rows, notes };
}

const VULN_LINE = /vuln-code-snippet\s+vuln-line\s+(\w+)/;
const WINDOW = 3;

/** Juice Shop sources: annotated vulnerable lines found (±3), and hints near one. */
function measureJuiceShop(dir) {
  const result = { files: 0, vulnerableLines: 0, found: 0, hints: 0, nearAnnotated: 0 };
  const notes = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const item = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    if (item.text.length !== item.total_chars)
      throw new Error(`${name}: ${item.text.length} characters, expected ${item.total_chars}`);
    const annotated = item.text
      .split('\n')
      .flatMap((line, index) => (VULN_LINE.test(line) ? [index + 1] : []));
    const hints = indexFile({ path: item.path, text: item.text });
    result.files++;
    result.vulnerableLines += annotated.length;
    for (const line of annotated) {
      if (hints.some((hint) => Math.abs(hint.line - line) <= WINDOW)) result.found++;
      else notes.push(`missed  ${item.path}:${line}`);
    }
    for (const hint of hints) {
      result.hints++;
      if (annotated.some((line) => Math.abs(hint.line - line) <= WINDOW)) result.nearAnnotated++;
      else notes.push(`far     ${item.path}:${hint.line} ${hint.ruleId}`);
    }
  }
  return { result, notes };
}

function summarise(rows) {
  const table = [...rows]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([category, row]) => ({ category, ...rates(row) }));
  const meanYouden =
    table.length === 0 ? 0 : table.reduce((sum, row) => sum + row.youden, 0) / table.length;
  const pooled = table.reduce(
    (total, row) => ({
      vulnerable: total.vulnerable + row.vulnerable,
      tp: total.tp + row.tp,
      safe: total.safe + row.safe,
      fp: total.fp + row.fp,
    }),
    emptyRow(),
  );
  return { table, meanYouden, pooled: rates(pooled) };
}

const report = {};
const sources = [
  ['benchmark-python', (dir) => measureBenchmark(dir, 'py', 667)],
  ['benchmark-java', (dir) => measureBenchmark(dir, 'java', 802)],
  ['semgrep-rules', measureSemgrep],
  ['gosec', measureGosec],
  ['njsscan', measureNjsscan],
  ['sard-php', measureSardPhp],
];
for (const [name, measure] of sources) {
  const dir = path.join(ROOT, name);
  if (!existsSync(dir)) {
    console.error(`skipped ${name}: no ${dir}`);
    continue;
  }
  const { rows, notes } = measure(dir);
  report[name] = { ...summarise(rows), notes };
}
const juiceDir = path.join(ROOT, 'juice-shop');
if (existsSync(juiceDir)) report['juice-shop'] = measureJuiceShop(juiceDir);
else console.error(`skipped juice-shop: no ${juiceDir}`);

if (flag('--json')) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const format = (value, count) => (count === 0 ? '–' : value.toFixed(2)).padStart(6);
  for (const [name, entry] of Object.entries(report)) {
    if (name === 'juice-shop') {
      const r = entry.result;
      console.log(
        `\n${name}: ${r.files} files; annotated vulnerable lines with a hint within ±${WINDOW}: ${r.found}/${r.vulnerableLines}; hints near an annotated line: ${r.nearAnnotated}/${r.hints}`,
      );
    } else {
      console.log(`\n${name}`);
      console.log('category                  vuln  safe    TPR    FPR  Youden');
      for (const row of entry.table)
        console.log(
          `${row.category.padEnd(24)} ${String(row.vulnerable).padStart(5)} ${String(row.safe).padStart(5)} ${format(row.tpr, row.vulnerable)} ${format(row.fpr, row.safe)} ${format(row.youden)}${row.rules === undefined ? '' : `  ${row.rules}`}`,
        );
      const p = entry.pooled;
      console.log(
        `${'pooled'.padEnd(24)} ${String(p.vulnerable).padStart(5)} ${String(p.safe).padStart(5)} ${format(p.tpr)} ${format(p.fpr)} ${format(p.youden)}`,
      );
      console.log(`${'mean of categories'.padEnd(45)}${format(entry.meanYouden)}`);
    }
    if (flag('--verbose')) for (const note of entry.notes) console.log(`  ${note}`);
  }
  if (Object.keys(report).length === 0) console.log(`no corpora under ${ROOT}`);
}
