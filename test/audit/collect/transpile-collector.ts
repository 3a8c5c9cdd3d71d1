import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const ENTRY_POINTS = [
  'src/audit/collect/collect-candidates.ts',
  'src/audit/collect/read-candidate.ts',
];
const RELATIVE_IMPORT = /from '(\.{1,2}\/[^']+)\.js'/g;

/**
 * Writes a plain-JavaScript copy of the collector (and what it imports) under `outDir`, so a
 * child process running as another user can load it with plain `node`, and a script `run.mjs`
 * that collects the directory given as its argument, reads every candidate and prints JSON.
 */
export function transpileCollector(outDir: string): string {
  const pending = [...ENTRY_POINTS];
  const done = new Set<string>();
  while (pending.length > 0) {
    const relPath = pending.pop() ?? '';
    if (done.has(relPath)) continue;
    done.add(relPath);
    const source = readFileSync(path.join(REPO_ROOT, relPath), 'utf8');
    for (const match of source.matchAll(RELATIVE_IMPORT)) {
      pending.push(path.posix.join(path.posix.dirname(relPath), `${match[1] ?? ''}.ts`));
    }
    const output = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const target = path.join(outDir, relPath.replace(/\.ts$/, '.js'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, output);
  }
  writeFileSync(path.join(outDir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(outDir, 'node_modules'));
  const script = path.join(outDir, 'run.mjs');
  writeFileSync(
    script,
    `import { collectCandidates } from './src/audit/collect/collect-candidates.js';
import { readCandidate } from './src/audit/collect/read-candidate.js';
const root = process.argv[2];
const maxFileBytes = 1024 * 1024;
const result = await collectCandidates({ root, include: [], exclude: [], maxFileBytes, env: process.env });
const ledger = [...result.ledger];
const read = [];
for (const candidate of result.candidates) {
  const outcome = await readCandidate(candidate, maxFileBytes);
  if ('file' in outcome) read.push(outcome.file.path);
  else ledger.push(outcome.entry);
}
process.stdout.write(JSON.stringify({ isGitRepo: result.isGitRepo, read, ledger }));
`,
  );
  chmodWorldReadable(outDir);
  return script;
}

// mkdtemp makes 0700 directories and the umask may be strict: open the copy to every user.
function chmodWorldReadable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const full = path.join(entry.parentPath, entry.name);
    chmodSync(full, entry.isDirectory() ? 0o755 : 0o644);
  }
}
