import type { SafetyMode } from './safety-mode.js';
import type { Category } from './tool-action.js';

export type ModeOutcome = 'allow' | 'ask' | 'deny';

/**
 * The one mode table (README.md "Safety modes"): what each mode does with each kind of call when no rule
 * speaks. decide() judges by it; the tools offered per mode, the mode paragraph of the system prompt and
 * `oy doctor`'s line are all derived from it.
 */
export const MODE_TABLE: Readonly<Record<SafetyMode, Readonly<Record<Category, ModeOutcome>>>> = {
  // Plan mode also refuses an MCP tool its server does not mark read-only (decide.ts): it may change anything.
  plan: { read: 'allow', write: 'deny', bash: 'deny', webfetch: 'ask', mcp: 'ask' },
  ask: { read: 'allow', write: 'ask', bash: 'ask', webfetch: 'ask', mcp: 'ask' },
  edit: { read: 'allow', write: 'allow', bash: 'ask', webfetch: 'ask', mcp: 'ask' },
  auto: { read: 'allow', write: 'allow', bash: 'allow', webfetch: 'allow', mcp: 'allow' },
};

/** How people and the model read each kind of call. */
const KIND_LABELS: Readonly<Record<Category, string>> = {
  read: 'reading and searching files',
  write: 'changing files',
  bash: 'running commands',
  webfetch: 'fetching URLs',
  mcp: 'using MCP server tools',
};

/** Every kind of call, in table order. */
export const ALL_KINDS: readonly Category[] = Object.keys(KIND_LABELS) as Category[];

/** The kinds of call a mode settles one way, in table order, among `kinds` (all of them by default). */
export function kindsWith(
  mode: SafetyMode,
  outcome: ModeOutcome,
  kinds: readonly Category[] = ALL_KINDS,
): Category[] {
  return kinds.filter((kind) => MODE_TABLE[mode][kind] === outcome);
}

/** `reading and searching files, changing files and running commands`: the kinds a mode settles one way. */
export function describeKinds(
  mode: SafetyMode,
  outcome: ModeOutcome,
  kinds: readonly Category[] = ALL_KINDS,
): string {
  const labels = kindsWith(mode, outcome, kinds).map((kind) => KIND_LABELS[kind]);
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}
