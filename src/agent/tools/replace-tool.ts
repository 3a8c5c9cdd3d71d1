import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { renderDiff } from './render-diff.js';
import type { ToolContext } from './tool-types.js';
import { ToolFailure } from './tool-types.js';
import { renderHiddenChange, whyContentHidden } from './write/hide-content.js';
import { compileReplacement, type Replacement } from './write/compile-replacement.js';
import { listReplaceCandidates } from './write/list-replace-candidates.js';
import { readExistingFile } from './write/read-existing-file.js';
import { resolveWriteTarget } from './write/resolve-write-target.js';
import { writePlannedFile, type PlannedFile } from './write/write-planned-file.js';

/** More files than this in one call is a refactoring to do in steps (and a diff no one reviews). */
export const MAX_REPLACE_FILES = 200;

const schema = z.strictObject({
  pattern: z
    .string()
    .describe('What to find: a JavaScript regular expression, or text in literal mode'),
  replacement: z
    .string()
    .describe(
      'What to put in its place; in regex mode $1, $<name>, $& and $$ work as in JavaScript',
    ),
  path: z
    .string()
    .default('.')
    .describe('File or folder to change, relative to the workspace root'),
  mode: z
    .enum(['regex', 'literal'])
    .optional()
    .describe('regex (default; an invalid regex falls back to literal) or literal'),
  glob: z
    .string()
    .optional()
    .describe(
      'Only files matching this gitignore-style pattern under path, e.g. *.ts or src/**/*.ts',
    ),
});

interface FileChange extends PlannedFile {
  beforeText: string;
  replacements: number;
}

interface ShownPlan {
  kind: 'shown';
  changes: FileChange[];
  mode: Replacement['mode'];
  skipped: Record<string, number>;
  diff: string;
}

/** One hidden file named as the path: read only at execute, once the call is allowed. */
interface HiddenPlan {
  kind: 'hidden';
  file: string;
  why: string;
}

/** `replace`: a regex or literal replacement across the files under a path. */
export const replaceTool = defineTool({
  name: 'replace',
  kind: 'write',
  description:
    'Replace a pattern across files under `path` (default the whole workspace), honouring .gitignore ' +
    'and skipping binary, secret-bearing and over-2 MiB files and paths Read rules cover. Regex mode ' +
    '(default) uses JavaScript syntax with the g and m flags and $1-style replacements, and stops ' +
    'after 20 s of matching; literal mode matches exact text. ' +
    `At most ${MAX_REPLACE_FILES} files per call. Returns per-file counts and a unified diff.`,
  schema,
  async intend(args, context) {
    const candidates = await listReplaceCandidates(context, args.path, args.glob);
    // Every file it may change, known from names alone: the policy judges them before any is read.
    return {
      action: { kind: 'write', tool: 'replace', path: args.path, files: candidates.files },
      target: candidates,
    };
  },
  async plan(
    args,
    context,
    candidates,
  ): Promise<{ preview: string; data: ShownPlan | HiddenPlan }> {
    const [only, second] = candidates.files;
    const why =
      only !== undefined && second === undefined ? whyContentHidden(only, context) : undefined;
    if (only !== undefined && why !== undefined) {
      return {
        preview: renderHiddenChange(only, why, undefined),
        data: { kind: 'hidden', file: only, why },
      };
    }
    const replacement = compileReplacement(args.pattern, args.replacement, args.mode, context.now);
    const plan = await planChanges(context, candidates.files, replacement).finally(() =>
      replacement.close(),
    );
    if (candidates.secretBearing > 0) plan.skipped['secret-bearing'] = candidates.secretBearing;
    if (candidates.leftOut > 0) plan.skipped['read-rules'] = candidates.leftOut;
    if (plan.changes.length === 0)
      throw new ToolFailure(
        `no match for the pattern in ${candidates.files.length} file(s) under ${args.path} (${plan.mode} mode)${describeLeftOut(candidates.leftOut)}`,
      );
    if (plan.changes.length > MAX_REPLACE_FILES)
      throw new ToolFailure(
        `the pattern matches in ${plan.changes.length} files, over the limit of ${MAX_REPLACE_FILES} per call; narrow it with path or glob`,
      );
    const diff = plan.changes
      .map((change) => renderDiff(change.relativePath, change.beforeText, change.content))
      .join('');
    return { preview: diff, data: { kind: 'shown', ...plan, diff } };
  },
  async execute(args, context, planned) {
    const plan = planned.kind === 'shown' ? planned : await planHidden(args, context, planned);
    for (const change of plan.changes) await writePlannedFile(context, change);
    return {
      mode: plan.mode,
      files: plan.changes.map((change) => ({
        path: change.relativePath,
        replacements: change.replacements,
      })),
      total_replacements: plan.changes.reduce((sum, change) => sum + change.replacements, 0),
      ...(Object.keys(plan.skipped).length > 0 ? { skipped: plan.skipped } : {}),
      ...(plan.skipped['read-rules'] === undefined
        ? {}
        : { note: describeLeftOut(plan.skipped['read-rules']).trim() }),
      diff: plan.diff,
    };
  },
});

/** The change to a hidden file, planned only now; its diff is a notice, never its lines. */
async function planHidden(
  args: z.infer<typeof schema>,
  context: ToolContext,
  hidden: HiddenPlan,
): Promise<ShownPlan> {
  const replacement = compileReplacement(args.pattern, args.replacement, args.mode, context.now);
  const plan = await planChanges(context, [hidden.file], replacement).finally(() =>
    replacement.close(),
  );
  if (plan.changes.length === 0)
    throw new ToolFailure(`no match for the pattern in ${hidden.file} (${plan.mode} mode)`);
  return { kind: 'shown', ...plan, diff: renderHiddenChange(hidden.file, hidden.why, undefined) };
}

function describeLeftOut(count: number): string {
  return count === 0
    ? ''
    : `; ${count} path(s) were left out because Read rules deny them or need approval`;
}

async function planChanges(
  context: ToolContext,
  candidates: readonly string[],
  replacement: Replacement,
): Promise<Omit<ShownPlan, 'kind' | 'diff'>> {
  const changes: FileChange[] = [];
  const skipped: Record<string, number> = {};
  const skip = (reason: string): void => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  for (const candidate of candidates) {
    if (context.signal.aborted) throw new ToolFailure('cancelled by the user');
    let target;
    try {
      target = resolveWriteTarget(context.workspaceRoot, candidate);
    } catch {
      skip('refused');
      continue;
    }
    const before = await readExistingFile(target.absolutePath, target.relativePath).catch(
      () => ({ kind: 'unreadable' }) as const,
    );
    if (before.kind !== 'text') {
      skip(before.kind);
      continue;
    }
    const result = await replacement.apply(before.text, target.relativePath);
    if (result.count === 0 || result.text === before.text) continue;
    changes.push({
      ...target,
      before,
      beforeText: before.text,
      content: result.text,
      replacements: result.count,
    });
  }
  return { changes, mode: replacement.mode, skipped };
}
