import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { confinePath } from './read/confine-path.js';
import { MAX_LINE_CHARS, numberLines, splitLines } from './read/number-lines.js';
import { MAX_TEXT_FILE_BYTES, readTextFile } from './read/read-text-file.js';
import { realpathSync } from 'node:fs';
import { isSecretBearingFile } from '../../safety/secret-files.js';
import { ToolFailure, type ToolContext } from './tool-types.js';

/** Lines returned when the model gives no limit. */
export const DEFAULT_READ_LINES = 2000;
/** Most lines one call may ask for; the character budget usually stops a read well before. */
export const MAX_READ_LINES = 10_000;
/** No text file under the 2 MiB cap has more lines than this; it keeps the schema's bound readable. */
const MAX_OFFSET_LINE = 10_000_000;
/** Characters of numbered lines per call: under the result cap, so a read stops at a line boundary. */
export const MAX_READ_CHARS = 90_000;

const schema = z
  .object({
    path: z.string().describe('File to read, relative to the workspace root.'),
    offset: z
      .number()
      .int()
      .min(1)
      .max(MAX_OFFSET_LINE)
      .default(1)
      .describe('First line to return, counting from 1.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_READ_LINES)
      .default(DEFAULT_READ_LINES)
      .describe(`Most lines to return (at most ${MAX_READ_LINES}).`),
  })
  .strict();

export const readTool = defineTool({
  name: 'read',
  kind: 'read',
  description: [
    'Read a UTF-8 text file in the workspace; returns lines numbered from 1 as "<number>\\t<line>".',
    `Defaults: offset 1, limit ${DEFAULT_READ_LINES} lines; about ${MAX_READ_CHARS / 1000}k characters at most per call.`,
    `When "has_more" is true, call again with offset set to "next_offset".`,
    `Lines over ${MAX_LINE_CHARS} characters are cut. Binary files and files over 2 MiB are refused.`,
    "Secret-bearing files (.env, keys, credentials) need the user's approval; secrets in any file come back redacted.",
  ].join(' '),
  schema,
  intend(args, context) {
    const target = confinePath(context.workspaceRoot, args.path, 'read');
    // The resolved path, so a link named like a source file still counts as the .env it points to.
    return { action: { kind: 'read', tool: 'read', path: target.relativePath }, target };
  },
  plan: (_args, _context, target) => ({ data: target }),
  async execute(args, context, target) {
    const file = await readTextFile(target.absolutePath, MAX_TEXT_FILE_BYTES);
    if (!file.ok) {
      const hint = file.problem === 'not-a-file' ? '; use list for folders' : '';
      throw new ToolFailure(`${target.relativePath} ${file.detail}${hint}`);
    }
    // The user approved this read (a secret-bearing read always asks): the sandbox stops covering it.
    if (isSecretBearingFile(target.relativePath)) revealToSandbox(context, target.absolutePath);
    // Redact the whole file before any line is cut, so a cut never leaves a token's prefix behind.
    const lines = splitLines(context.redact(file.text));
    if (args.offset > Math.max(1, lines.length)) {
      throw new ToolFailure(
        `offset ${args.offset} is past the end of ${target.relativePath}, which has ${lines.length} lines`,
      );
    }
    const slice = numberLines(lines, args.offset, args.limit, MAX_READ_CHARS);
    const nextLine = args.offset + slice.shown;
    const hasMore = nextLine <= lines.length;
    return {
      path: target.relativePath,
      content: slice.content,
      offset: args.offset,
      lines_shown: slice.shown,
      total_lines: lines.length,
      has_more: hasMore,
      ...(hasMore ? { next_offset: nextLine } : {}),
      ...(slice.cutLines > 0 ? { lines_cut: slice.cutLines } : {}),
    };
  },
});

function revealToSandbox(context: ToolContext, absolutePath: string): void {
  try {
    context.shell.revealedFiles?.add(realpathSync(absolutePath));
  } catch {
    // Gone since it was read: nothing to reveal.
  }
}
