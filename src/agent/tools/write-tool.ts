import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { diffExisting } from './write/diff-existing.js';
import { renderHiddenChange, whyContentHidden } from './write/hide-content.js';
import { readExistingFile } from './write/read-existing-file.js';
import { resolveWriteTarget } from './write/resolve-write-target.js';
import { writePlannedFile, type PlannedFile } from './write/write-planned-file.js';

const schema = z.strictObject({
  path: z.string().describe('File to create or overwrite, relative to the workspace root'),
  content: z.string().describe('The complete new content of the file'),
});

/** `write`: creates or overwrites one file with the given content, creating parent folders. */
export const writeTool = defineTool({
  name: 'write',
  kind: 'write',
  description:
    'Create a file or overwrite it with `content` (the whole file), creating parent folders. ' +
    'Prefer `edit` for changing part of an existing file. Paths stay inside the workspace; ' +
    '.git/ and .oy/ are never written. Returns a unified diff.',
  schema,
  intend(args, context) {
    const target = resolveWriteTarget(context.workspaceRoot, args.path);
    return { action: { kind: 'write', tool: 'write', path: target.relativePath }, target };
  },
  async plan(args, context, target) {
    const before = await readExistingFile(target.absolutePath, target.relativePath);
    const hidden = whyContentHidden(target.relativePath, context);
    const diff =
      hidden === undefined
        ? diffExisting(target.relativePath, before, args.content)
        : renderHiddenChange(target.relativePath, hidden, args.content);
    const data: PlannedFile & { diff: string } = { ...target, before, content: args.content, diff };
    return { preview: diff || `(no change to ${target.relativePath})`, data };
  },
  async execute(_args, context, planned) {
    await writePlannedFile(context, planned);
    return {
      path: planned.relativePath,
      created: planned.before.kind === 'absent',
      bytes: Buffer.byteLength(planned.content),
      diff: planned.diff,
    };
  },
});
