import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface CorpusFile {
  path: string;
  text: string;
}

interface Bucket {
  name: string;
  accepts(filePath: string, text: string): boolean;
  maxBytes: number;
  bytes: number;
}

const NODE_MODULES = path.resolve(import.meta.dirname, '../../../node_modules');
// Big files would crowd out variety; a few hundred KB keeps each bucket to many files.
const MAX_FILE_BYTES = 200_000;

/**
 * Real files from the project's node_modules, chosen deterministically (sorted walk) into
 * buckets so the corpus mixes JavaScript, TypeScript, JSON, Markdown, non-ASCII and CRLF text.
 */
export function readCodeCorpus(scale = 1): CorpusFile[] {
  const buckets: Bucket[] = [
    bucket('non-ascii', 700_000, (_p, text) => /[^\p{ASCII}]/u.test(text)),
    bucket('crlf', 300_000, (_p, text) => text.includes('\r\n')),
    bucket('javascript', 1_200_000, (p) => /\.(c|m)?js$/.test(p)),
    bucket('typescript', 800_000, (p) => /\.(c|m)?ts$/.test(p)),
    bucket('json', 500_000, (p) => p.endsWith('.json')),
    bucket('markdown', 600_000, (p) => p.endsWith('.md')),
  ].map((b) => ({ ...b, maxBytes: Math.round(b.maxBytes * scale) }));
  const files: CorpusFile[] = [];
  const visit = (dir: string): boolean => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    );
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (visit(full)) return true;
      } else if (entry.isFile() && /\.(c|m)?(js|ts)$|\.json$|\.md$/.test(entry.name)) {
        const bytes = readFileSync(full);
        if (bytes.length === 0 || bytes.length > MAX_FILE_BYTES) continue;
        const text = bytes.toString('utf8');
        const target = buckets.find((b) => b.bytes < b.maxBytes && b.accepts(full, text));
        if (!target) continue;
        target.bytes += bytes.length;
        files.push({ path: path.relative(NODE_MODULES, full), text });
        if (buckets.every((b) => b.bytes >= b.maxBytes)) return true;
      }
    }
    return false;
  };
  visit(NODE_MODULES);
  return files;
}

function bucket(name: string, maxBytes: number, accepts: Bucket['accepts']): Bucket {
  return { name, maxBytes, bytes: 0, accepts };
}
