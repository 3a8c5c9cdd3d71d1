import { lstat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { confinePath } from './read/confine-path.js';
import { loadWalkRules } from './read/load-walk-rules.js';
import { LEFT_OUT_NOTE, walkWorkspace, type WalkEntry } from './read/walk-workspace.js';
import { ToolFailure } from './tool-types.js';

/** Entries listed when the model gives no limit: a mid-sized project two levels deep. */
export const DEFAULT_LIST_LIMIT = 500;
/** Most entries one call may list; past this a listing is too long to be useful to a model. */
export const MAX_LIST_LIMIT = 5000;
/** Deepest listing one call may ask for; deeper trees are better explored folder by folder. */
export const MAX_LIST_DEPTH = 20;

const schema = z
  .object({
    path: z.string().default('.').describe('Folder to list, relative to the workspace root.'),
    depth: z
      .number()
      .int()
      .min(1)
      .max(MAX_LIST_DEPTH)
      .default(2)
      .describe('Levels to descend: 1 lists only the folder itself.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_LIST_LIMIT)
      .default(DEFAULT_LIST_LIMIT)
      .describe(`Most entries to return (at most ${MAX_LIST_LIMIT}).`),
  })
  .strict();

export const listTool = defineTool({
  name: 'list',
  kind: 'read',
  description: [
    'List the files and folders under a workspace folder, sorted, skipping what .gitignore ignores and .git; paths the Read rules cover are left out and only counted ("left_out").',
    'Paths are relative to the workspace root; folders end with "/", symbolic links with "@" (links are not followed).',
    `Defaults: path ".", depth 2, limit ${DEFAULT_LIST_LIMIT} entries (max ${MAX_LIST_LIMIT}); "truncated" says the limit cut the listing.`,
  ].join(' '),
  schema,
  intend(args, context) {
    const target = confinePath(context.workspaceRoot, args.path, 'list');
    return { action: { kind: 'read', tool: 'list', path: target.relativePath }, target };
  },
  plan: (_args, _context, target) => ({ data: target }),
  async execute(args, context, target) {
    const stats = await lstat(target.absolutePath).catch(() => undefined);
    if (stats === undefined) throw new ToolFailure(`${args.path} does not exist`);
    if (!stats.isDirectory())
      throw new ToolFailure(`${args.path} is a file, not a folder; use read to see it`);
    const { realRoot, walkPath: start } = target;
    const rules = await loadWalkRules(realRoot, start, context.shell.baseEnv);
    const entries: string[] = [];
    let truncated = false;
    let leftOut = 0;
    for await (const entry of walkWorkspace({
      realRoot,
      start,
      rules,
      maxDepth: args.depth,
      signal: context.signal,
      canRead: context.canRead,
      onLeftOut: () => {
        leftOut += 1;
      },
    })) {
      if (entries.length >= args.limit) {
        truncated = true;
        break;
      }
      entries.push(formatEntry(entry));
    }
    return {
      path: target.relativePath,
      entries,
      count: entries.length,
      truncated,
      ...(truncated
        ? { note: `stopped at ${args.limit} entries; list a subfolder or use a smaller depth` }
        : {}),
      ...(leftOut === 0 ? {} : { left_out: leftOut, left_out_note: LEFT_OUT_NOTE }),
    };
  },
});

function formatEntry(entry: WalkEntry): string {
  if (entry.kind === 'dir') return `${entry.path}/`;
  if (entry.kind === 'link') return `${entry.path}@`;
  return entry.path;
}
