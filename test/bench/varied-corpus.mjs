// Builds the varied real-text corpus: Python stdlib, C headers, Perl, shell, Markdown and seeded JSON/CSV.
// Deterministic on one machine: sorted selection, fixed per-source caps, fixed seed for generated data.
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { SKIPPED_DIR_NAMES } from './bench-corpus.mjs';

/** Larger files are mostly generated; leaving them out keeps the corpus varied hand-written text. */
const MAX_FILE_BYTES = 256 * 1024;
const SEED = 0x5eed_2026;

/** Each source: roots, a file test, and caps that keep the corpus the same size run to run. */
function sources() {
  const stdlib = pythonStdlib();
  return [
    {
      name: 'python',
      roots: [stdlib, ...systemPythonDirs()].filter(Boolean),
      accept: (name) => name.endsWith('.py'),
      skipDir: (name) => name === 'site-packages' || name === 'dist-packages',
      maxFiles: 4000,
      maxBytes: 30e6,
    },
    {
      name: 'c-headers',
      roots: ['/usr/include'],
      accept: (name) => /\.(h|hpp|hh|hxx|tcc)$/.test(name),
      maxFiles: 6500,
      maxBytes: 75e6,
    },
    {
      name: 'perl',
      roots: ['/usr/share/perl', '/usr/share/perl5', '/usr/lib/x86_64-linux-gnu/perl-base'],
      accept: (name) => /\.(pm|pl|pod|t)$/.test(name),
      maxFiles: 3000,
      maxBytes: 25e6,
    },
    {
      name: 'shell',
      roots: ['/usr/bin', '/usr/sbin'],
      accept: (name, full) => hasShellShebang(full),
      maxFiles: 400,
      maxBytes: 5e6,
      flat: true,
    },
    {
      name: 'docs',
      roots: ['/usr/share/doc'],
      accept: (name) => /\.(md|markdown|txt|rst)$/i.test(name),
      maxFiles: 1500,
      maxBytes: 10e6,
    },
  ];
}

function systemPythonDirs() {
  if (!existsSync('/usr/lib')) return [];
  return readdirSync('/usr/lib')
    .filter((name) => /^python3(\.\d+)?$/.test(name))
    .sort()
    .map((name) => path.join('/usr/lib', name));
}

function pythonStdlib() {
  try {
    return execFileSync(
      'python3',
      ['-c', 'import sysconfig;print(sysconfig.get_paths()["stdlib"])'],
      { encoding: 'utf8' },
    ).trim();
  } catch {
    return null;
  }
}

function hasShellShebang(full) {
  const buffer = Buffer.alloc(64);
  let fd;
  try {
    fd = openSync(full, 'r');
    const read = readSync(fd, buffer, 0, 64, 0);
    return /^#!\s*\S*\/(env\s+)?(ba|da|k|z)?sh\b/.test(buffer.subarray(0, read).toString('latin1'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Regular files under the roots, in sorted order, up to the source's caps. */
function selectFiles(source) {
  const picked = [];
  let bytes = 0;
  const seen = new Set();
  const visit = (root, dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (picked.length >= source.maxFiles || bytes >= source.maxBytes) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!source.flat && !source.skipDir?.(entry.name)) visit(root, full);
      } else if (entry.isFile() && source.accept(entry.name, full)) {
        const size = statSync(full).size;
        if (size === 0 || size > MAX_FILE_BYTES || seen.has(full)) continue;
        seen.add(full);
        picked.push({ full, relative: path.join(path.basename(root), path.relative(root, full)) });
        bytes += size;
      }
    }
  };
  for (const root of source.roots) if (existsSync(root)) visit(root, root);
  return { picked, bytes };
}

/** A small fixed-seed PRNG (mulberry32): the same data every run. */
function createRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'alpha beta gamma delta order invoice customer region status shipped pending total amount note city street'.split(
    ' ',
  );

/** Writes 24 JSON and 24 CSV files of about 120 KB each (about 5.8 MB) from a fixed seed. */
function writeDataFiles(dir) {
  const random = createRandom(SEED);
  const word = () => WORDS[Math.floor(random() * WORDS.length)];
  mkdirSync(dir, { recursive: true });
  let files = 0;
  let bytes = 0;
  for (let index = 0; index < 24; index++) {
    const records = [];
    for (let size = 0; size < 120_000;) {
      const record = {
        id: Math.floor(random() * 1e9),
        name: `${word()} ${word()}`,
        amount: Math.round(random() * 1e6) / 100,
        tags: [word(), word()],
        active: random() < 0.5,
        created: new Date(1.6e12 + Math.floor(random() * 1e11)).toISOString(),
      };
      records.push(record);
      size += 130;
    }
    const json = JSON.stringify(records, null, 2) + '\n';
    writeFileSync(path.join(dir, `records-${String(index).padStart(2, '0')}.json`), json);
    const csv = [
      'id,name,amount,tag,active,created',
      ...records.map((r) => `${r.id},${r.name},${r.amount},${r.tags[0]},${r.active},${r.created}`),
    ].join('\n');
    writeFileSync(path.join(dir, `table-${String(index).padStart(2, '0')}.csv`), csv + '\n');
    files += 2;
    bytes += Buffer.byteLength(json) + Buffer.byteLength(csv) + 1;
  }
  return { files, bytes };
}

function safeName(segment) {
  return SKIPPED_DIR_NAMES.has(segment) || segment.startsWith('.') ? `${segment}_` : segment;
}

/** Builds `<workDir>/varied/copy-1` once; returns the corpus root and per-source counts. */
export function buildVariedCorpus(workDir) {
  const corpus = path.join(workDir, 'varied');
  const base = path.join(corpus, 'copy-1');
  const summary = [];
  if (existsSync(base)) return { corpus, summary };
  for (const source of sources()) {
    const { picked, bytes } = selectFiles(source);
    for (const file of picked) {
      const target = path.join(base, source.name, ...file.relative.split(path.sep).map(safeName));
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(file.full, target);
    }
    summary.push({ source: source.name, files: picked.length, bytes });
  }
  const data = writeDataFiles(path.join(base, 'data'));
  summary.push({ source: 'data', ...data });
  return { corpus, summary };
}

/** A sibling tree holding `copies` copies of the varied corpus, for the growth table. */
export function buildScaledCorpus(workDir, copies) {
  const { corpus } = buildVariedCorpus(workDir);
  if (copies === 1) return corpus;
  const scaled = path.join(workDir, `varied-x${copies}`);
  if (existsSync(scaled)) return scaled;
  for (let copy = 1; copy <= copies; copy++)
    cpSync(path.join(corpus, 'copy-1'), path.join(scaled, `copy-${copy}`), { recursive: true });
  return scaled;
}
