import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { OyError, UsageError } from '../../shared/errors.js';
import { compareText } from '../report/order-by-severity.js';
import type { Finding } from '../types.js';

const BaselineSchema = z.object({
  schemaVersion: z.literal(1),
  tool: z.literal('oy'),
  fingerprints: z.array(
    // Only the fingerprint matters; ruleId or category, path and title help people read the file.
    z.looseObject({ fingerprint: z.string().min(1) }),
  ),
});

// A path the user named that is not a readable file is a bad flag value, not an I/O failure.
const NOT_A_FILE_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * The fingerprints of a `--baseline` file. A missing or malformed file is a `UsageError` naming
 * the flag; any other read failure is a runtime error.
 */
export async function readBaseline(filePath: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (NOT_A_FILE_CODES.has(code)) {
      throw new UsageError(`\`--baseline\` file not found: ${filePath} (${code})`, {
        hint: 'create one with `oy audit --write-baseline <file>`',
        cause: error,
      });
    }
    throw new OyError(
      `cannot read the \`--baseline\` file ${filePath}: ${code || String(error)}`,
      undefined,
      {
        cause: error,
      },
    );
  }
  return parseBaseline(text, filePath);
}

/**
 * The fingerprints of a baseline file's text; `label` names it in the error (its path, or its
 * path as of a commit). A malformed file is a `UsageError`.
 */
export function parseBaseline(text: string, label: string): Set<string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw malformed(label, `not JSON (${(error as Error).message})`, error);
  }
  const parsed = BaselineSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw malformed(label, `${where}${issue?.message ?? 'unexpected shape'}`, parsed.error);
  }
  return new Set(parsed.data.fingerprints.map((entry) => entry.fingerprint));
}

/**
 * A baseline file for `--write-baseline`: one entry per distinct fingerprint, sorted by path,
 * category and fingerprint, so the same findings always give the same bytes and diffs stay small.
 */
export function renderBaseline(
  findings: readonly Pick<Finding, 'fingerprint' | 'category' | 'path' | 'title'>[],
  generatedAt: string,
): string {
  const entries = findings
    .map(({ fingerprint, category, path, title }) => ({ fingerprint, category, path, title }))
    .sort(
      (a, b) =>
        compareText(a.path, b.path) ||
        compareText(a.category, b.category) ||
        compareText(a.fingerprint, b.fingerprint) ||
        compareText(a.title, b.title),
    );
  const seen = new Set<string>();
  const fingerprints = entries.filter((entry) => {
    if (seen.has(entry.fingerprint)) return false;
    seen.add(entry.fingerprint);
    return true;
  });
  return `${JSON.stringify({ schemaVersion: 1, tool: 'oy', generatedAt, fingerprints }, null, 2)}\n`;
}

/** Findings split by whether the baseline knows them; both keep their input order. */
export function applyBaseline(
  findings: readonly Finding[],
  fingerprints: ReadonlySet<string>,
): { kept: Finding[]; suppressed: Finding[] } {
  const kept: Finding[] = [];
  const suppressed: Finding[] = [];
  for (const finding of findings) {
    (fingerprints.has(finding.fingerprint) ? suppressed : kept).push(finding);
  }
  return { kept, suppressed };
}

function malformed(filePath: string, detail: string, cause: unknown): UsageError {
  return new UsageError(`\`--baseline\` file ${filePath} is not an oy baseline: ${detail}`, {
    hint: 'write a fresh one with `oy audit --write-baseline <file>`',
    cause,
  });
}
