import { z } from 'zod';
import type { WorkspacePath } from '../../safety/paths/resolve-workspace-path.js';
import { defineTool } from './define-tool.js';
import { renderDiff } from './render-diff.js';
import { ToolFailure } from './tool-types.js';
import { renderHiddenChange, whyContentHidden } from './write/hide-content.js';
import { readExistingFile, requireText } from './write/read-existing-file.js';
import { resolveWriteTarget } from './write/resolve-write-target.js';
import { writePlannedFile, type PlannedFile } from './write/write-planned-file.js';

const schema = z.strictObject({
  path: z.string().describe('File to edit, relative to the workspace root'),
  old_string: z.string().describe('Exact text to find (whitespace and indentation included)'),
  new_string: z.string().describe('Text to put in its place'),
  replace_all: z
    .boolean()
    .default(false)
    .describe('Replace every occurrence; without it old_string must occur exactly once'),
});

type EditArgs = z.infer<typeof schema>;

/** Planned from the file's content, shown as a diff; or, for a hidden file, only its target (read at execute). */
type EditPlan =
  | (PlannedFile & { kind: 'shown'; replacements: number; diff: string })
  | { kind: 'hidden'; target: WorkspacePath; why: string };

/** `edit`: exact text replacement in one existing UTF-8 file. */
export const editTool = defineTool({
  name: 'edit',
  kind: 'write',
  description:
    'Replace exact text in an existing UTF-8 file. `old_string` must match exactly (no regex) and, ' +
    'unless `replace_all` is true, occur exactly once: include surrounding lines to make it unique. ' +
    'Returns the number of replacements and a unified diff.',
  schema,
  intend(args, context) {
    const target = resolveWriteTarget(context.workspaceRoot, args.path);
    return { action: { kind: 'write', tool: 'edit', path: target.relativePath }, target };
  },
  async plan(args, context, target): Promise<{ preview: string; data: EditPlan }> {
    checkArguments(args);
    const why = whyContentHidden(target.relativePath, context);
    // A hidden file is not read until the call is approved, so no answer before that depends on it.
    if (why !== undefined) {
      const preview = renderHiddenChange(target.relativePath, why, args.new_string);
      return { preview, data: { kind: 'hidden', target, why } };
    }
    const planned = await planEdit(args, target);
    const diff = renderDiff(target.relativePath, planned.beforeText, planned.content);
    return { preview: diff, data: { kind: 'shown', ...planned, diff } };
  },
  async execute(args, context, planned) {
    if (planned.kind === 'shown') {
      await writePlannedFile(context, planned);
      return { path: planned.relativePath, replacements: planned.replacements, diff: planned.diff };
    }
    const edit = await planEdit(args, planned.target);
    await writePlannedFile(context, edit);
    const diff = renderHiddenChange(edit.relativePath, planned.why, args.new_string);
    return { path: edit.relativePath, replacements: edit.replacements, diff };
  },
});

function checkArguments(args: EditArgs): void {
  if (args.old_string === '')
    throw new ToolFailure('old_string is empty; to create or overwrite a file use write');
  if (args.old_string === args.new_string)
    throw new ToolFailure('old_string and new_string are the same; nothing would change');
}

async function planEdit(
  args: EditArgs,
  target: WorkspacePath,
): Promise<PlannedFile & { beforeText: string; replacements: number }> {
  const shown = target.relativePath;
  const before = await readExistingFile(target.absolutePath, shown);
  const text = requireText(before, shown);
  const occurrences = text.split(args.old_string).length - 1;
  if (occurrences === 0)
    throw new ToolFailure(
      `old_string was not found in ${shown}; read the file and copy the text exactly, whitespace included`,
    );
  if (occurrences > 1 && !args.replace_all)
    throw new ToolFailure(
      `old_string occurs ${occurrences} times in ${shown}; include more surrounding context to make it unique, or set replace_all to true`,
    );
  // split/join, not String.replace: `$&` and `$1` in new_string stay literal.
  const content = args.replace_all
    ? text.split(args.old_string).join(args.new_string)
    : replaceOnce(text, args.old_string, args.new_string);
  return { ...target, before, beforeText: text, content, replacements: occurrences };
}

function replaceOnce(text: string, search: string, replacement: string): string {
  const index = text.indexOf(search);
  return text.slice(0, index) + replacement + text.slice(index + search.length);
}
