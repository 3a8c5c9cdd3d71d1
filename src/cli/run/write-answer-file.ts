import { resolveOutputPath } from '../../safety/paths/resolve-output-path.js';
import { writeFileAtomic } from '../../shared/write-file-atomic.js';

/** `oy run --out`: a file inside the workspace, checked before the run and again before writing. */
export function resolveAnswerPath(workspaceRoot: string, requested: string): string {
  return resolveOutputPath(workspaceRoot, requested, '--out', { example: 'answer.md' });
}

/** Writes the answer to `--out`, resolved again now: the run may have changed the tree since the start. */
export async function writeAnswerFile(
  workspaceRoot: string,
  requested: string,
  answer: string,
): Promise<string> {
  const target = resolveAnswerPath(workspaceRoot, requested);
  await writeFileAtomic(target, answer.endsWith('\n') ? answer : `${answer}\n`);
  return target;
}
