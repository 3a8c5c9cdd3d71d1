import type { AuditPlan } from './audit-plan.js';
import { ROOT_FOLDER } from './measure-load.js';

/** How many folders and files a message names: the few that decide the size. */
const NAMED_MAX = 3;
// A folder name that can go in a shell suggestion as it is, between single quotes.
const PLAIN_FOLDER = /^[\w.@+-]+\/$/;

export interface Narrowing {
  /** Where the tokens are: the heaviest folders with their share, then the largest files. */
  where: string;
  /** The ways to narrow the run, most targeted first. */
  hint: string;
}

/** Where a plan's tokens go and how to narrow it: for the `--max-chunks` error and the dry-run warning. */
export function describeNarrowing(plan: AuditPlan): Narrowing {
  const total = plan.folders.reduce((sum, folder) => sum + folder.tokens, 0);
  const folders = plan.folders
    .filter((folder) => folder.tokens > 0)
    .slice(0, NAMED_MAX)
    .map((folder) => `${folder.folder} ${formatShare(folder.tokens, total)}`);
  const files = plan.largestFiles
    .slice(0, NAMED_MAX)
    .map((file) => `${file.path} (${formatTokens(file.tokens)} tokens)`);
  const where = [
    folders.length > 0 ? `most tokens are in ${folders.join(', ')}` : '',
    files.length > 0 ? `the largest files are ${files.join(', ')}` : '',
  ]
    .filter((part) => part !== '')
    .join('; ');

  const ways: string[] = [];
  const heaviest = plan.folders.find(
    (folder) =>
      folder.tokens > 0 && folder.folder !== ROOT_FOLDER && PLAIN_FOLDER.test(folder.folder),
  );
  if (heaviest !== undefined) ways.push(`--exclude '${heaviest.folder}**'`);
  if (plan.scope === 'all')
    ways.push(
      '--scope shipping (tests, fixtures, docs, translations and examples get the deterministic checks only)',
    );
  ways.push(`--riskiest ${plan.maxChunks} (review only the riskiest ${plan.maxChunks} chunks)`);
  ways.push('--include or --diff');
  return {
    where,
    hint: `narrow it with ${ways.join(', ')}, or raise --max-chunks; --dry-run shows tokens by folder`,
  };
}

function formatShare(tokens: number, total: number): string {
  const percent = total === 0 ? 0 : Math.round((tokens / total) * 100);
  return `(${percent < 1 ? '<1' : percent}%)`;
}

function formatTokens(tokens: number): string {
  return tokens.toLocaleString('en-US');
}
