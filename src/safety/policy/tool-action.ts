import type { FileRuleKind } from './permission-rule.js';

export type ToolName =
  | 'list'
  | 'read'
  | 'search'
  | 'todo'
  | 'write'
  | 'edit'
  | 'replace'
  | 'bash'
  | 'webfetch'
  | 'ask'
  | 'mcp';

/** A tool of an MCP server as the policy sees it; `isReadOnly` is the server's own `readOnlyHint`. */
export interface McpTarget {
  server: string;
  tool: string;
  isReadOnly: boolean;
}

/** What a tool is about to do, as the policy needs to see it. */
export interface ToolAction {
  tool: ToolName;
  path?: string;
  /** The files a `replace` will change; without them no allow rule can allow a replace. */
  paths?: readonly string[];
  command?: string;
  url?: string;
  /** `todo` with persist writes TODO.md, so it is a write. */
  persist?: boolean;
  /** Set for `mcp`: which server and tool. */
  mcp?: McpTarget;
}

/** The mode-table column a tool call falls in: `todo` with persist is a write. */
export type Category = 'read' | 'write' | 'bash' | 'webfetch' | 'mcp';

/** What each tool is, for the mode table: its column, or `ask`, which only needs someone to answer. */
export const TOOL_KINDS: Readonly<Record<ToolName, Category | 'ask'>> = {
  list: 'read',
  read: 'read',
  search: 'read',
  // Persisting the list writes TODO.md: categoryOf makes that call a write.
  todo: 'read',
  write: 'write',
  edit: 'write',
  replace: 'write',
  bash: 'bash',
  webfetch: 'webfetch',
  ask: 'ask',
  mcp: 'mcp',
};

export function kindOf(tool: ToolName): Category | 'ask' {
  return TOOL_KINDS[tool];
}

/** Write and Edit rules both govern every tool that changes files, so a deny of either holds for all of them. */
export const FILE_RULE_KINDS: Readonly<Record<'read' | 'write', readonly FileRuleKind[]>> = {
  read: ['read'],
  write: ['write', 'edit'],
};
/** The file `todo` with persist writes. */
export const TODO_FILE = 'TODO.md';

/** The mode-table column of a tool call. */
export function categoryOf(action: ToolAction): Category {
  if (action.tool === 'todo' && action.persist === true) return 'write';
  const kind = kindOf(action.tool);
  return kind === 'ask' ? 'read' : kind;
}

/** The workspace paths a file tool touches, as requested. */
export function pathsOf(action: ToolAction, category: Category): readonly string[] {
  if (action.tool === 'todo') return category === 'write' ? [TODO_FILE] : [];
  if (action.paths !== undefined && action.paths.length > 0) return action.paths;
  return [action.path ?? '.'];
}
