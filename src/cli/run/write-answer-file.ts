import { resolveOutputPath } from '../../safety/paths/resolve-output-path.js';
import { writeFileAtomic } from '../../shared/write-file-atomic.js';

/** Writes the answer to `--out`, resolved again now: the run may have changed the tree since the start. */
export async function writeAnswerFile(
  workspaceRoot: string,
  requested: string,
  answer: string,
): Promise<string> {
  const target = resolveOutputPath(workspaceRoot, requested, '--out');
  await writeFileAtomic(target, answer.endsWith('\n') ? answer : `${answer}\n`);
  return target;
}
