import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { renderDiff } from './render-diff.js';
import { ToolFailure } from './tool-types.js';
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

interface EditPlan extends PlannedFile {
  replacements: number;
  diff: string;
}

/** `edit`: exact text replacement in one existing UTF-8 file. */
export const editTool = defineTool({
  name: 'edit',
  description:
    'Replace exact text in an existing UTF-8 file. `old_string` must match exactly (no regex) and, ' +
    'unless `replace_all` is true, occur exactly once: include surrounding lines to make it unique. ' +
    'Returns the number of replacements and a unified diff.',
  schema,
  async plan(args, context) {
    const target = resolveWriteTarget(context.workspaceRoot, args.path);
    const shown = target.relativePath;
    if (args.old_string === '')
      throw new ToolFailure('old_string is empty; to create or overwrite a file use write');
    if (args.old_string === args.new_string)
      throw new ToolFailure('old_string and new_string are the same; nothing would change');
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
    const diff = renderDiff(shown, text, content);
    const data: EditPlan = { ...target, before, content, replacements: occurrences, diff };
    return { action: { tool: 'edit', path: shown }, preview: diff, data };
  },
  async execute(_args, context, planned) {
    await writePlannedFile(context, planned);
    return { path: planned.relativePath, replacements: planned.replacements, diff: planned.diff };
  },
});

function replaceOnce(text: string, search: string, replacement: string): string {
  const index = text.indexOf(search);
  return text.slice(0, index) + replacement + text.slice(index + search.length);
}
