import { lstat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { compileSearchPattern } from './read/compile-search-pattern.js';
import { confinePath } from './read/confine-path.js';
import { MAX_HIT_CHARS } from './read/match-worker.js';
import {
  MAX_SEARCH_BYTES,
  SEARCH_TIME_BUDGET_MS,
  searchWorkspace,
  type SearchOutcome,
} from './read/search-workspace.js';
import { ToolFailure } from './tool-types.js';
import { LEFT_OUT_NOTE } from './read/walk-workspace.js';

/** Matches returned when the model gives no limit: enough to see the pattern's spread. */
export const DEFAULT_SEARCH_LIMIT = 200;
/** The hard cap on matches per call (README.md "Tools"). */
export const MAX_SEARCH_LIMIT = 10_000;

const schema = z
  .object({
    pattern: z.string().min(1).describe('What to look for in each line.'),
    path: z
      .string()
      .default('.')
      .describe('Folder (or single file) to search, relative to the workspace root.'),
    mode: z
      .enum(['regex', 'literal'])
      .optional()
      .describe(
        'regex: JavaScript regular expression; literal: exact text. Omitted: regex, falling back to literal if invalid.',
      ),
    glob: z
      .string()
      .optional()
      .describe(
        'Only search files matching this gitignore-style pattern over workspace-relative paths, e.g. "*.ts" or "src/**/*.test.ts".',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_LIMIT)
      .default(DEFAULT_SEARCH_LIMIT)
      .describe(`Most matches to return (at most ${MAX_SEARCH_LIMIT}).`),
  })
  .strict();

export const searchTool = defineTool({
  name: 'search',
  kind: 'read',
  description: [
    'Search the text files under a workspace folder for lines matching a pattern (case-sensitive); returns {path, line, text} per match, in path order.',
    'Honours .gitignore and skips .git, symbolic links, binary files, files over 2 MiB and secret-bearing files (.env, keys; read them with read, which asks the user); paths the Read rules cover are left out and only counted ("left_out").',
    `Defaults: path ".", regex mode, limit ${DEFAULT_SEARCH_LIMIT} matches (max ${MAX_SEARCH_LIMIT.toLocaleString('en-US')}); "truncated" says the limit was reached.`,
    `Only the first 10,000 characters of a line are tested and ${MAX_HIT_CHARS.toLocaleString('en-US')} are shown; one search reads at most ${MAX_SEARCH_BYTES / (1024 * 1024)} MiB and matches for ${SEARCH_TIME_BUDGET_MS / 1000} s.`,
  ].join(' '),
  schema,
  intend(args, context) {
    const target = confinePath(context.workspaceRoot, args.path, 'search');
    return { action: { kind: 'read', tool: 'search', path: target.relativePath }, target };
  },
  plan(args, _context, target) {
    return { data: { target, compiled: compileSearchPattern(args.pattern, args.mode) } };
  },
  async execute(args, context, { target, compiled }) {
    const stats = await lstat(target.absolutePath).catch(() => undefined);
    if (stats === undefined) throw new ToolFailure(`${args.path} does not exist`);
    const outcome = await searchWorkspace({
      target,
      isFile: stats.isFile(),
      pattern: compiled.pattern,
      glob: args.glob,
      limit: args.limit,
      env: context.shell.baseEnv,
      signal: context.signal,
      now: context.now,
      canRead: context.canRead,
      redact: context.redact,
    });
    return {
      matches: outcome.matches,
      count: outcome.matches.length,
      truncated: outcome.hitLimit,
      files_searched: outcome.filesSearched,
      mode: compiled.pattern.kind,
      ...(compiled.note === undefined ? {} : { note: compiled.note }),
      ...describeSkips(outcome),
      ...(outcome.stopped === undefined ? {} : { stopped_early: outcome.stopped }),
      ...(outcome.leftOut === 0 ? {} : { left_out: outcome.leftOut, left_out_note: LEFT_OUT_NOTE }),
    };
  },
});

function describeSkips(outcome: SearchOutcome): Record<string, unknown> {
  const counts = Object.entries(outcome.skipped).filter(([, count]) => count > 0);
  const skipped: Record<string, unknown> = Object.fromEntries(counts);
  if (outcome.secretFileCount > 0) {
    skipped.secret_bearing = outcome.secretFileCount;
    skipped.secret_bearing_files = outcome.secretFiles;
    skipped.secret_note =
      "secret-bearing files are not searched; read one with read, which needs the user's approval";
  }
  return Object.keys(skipped).length === 0 ? {} : { skipped };
}
