import type { FileRuleKind } from './permission-rule.js';

/**
 * What a tool is, as the policy judges it (README.md "Safety modes"): each tool declares one, and the
 * action it shows the policy carries it. `ask` needs only someone to answer; the others are the mode
 * table's columns.
 */
export type ToolKind = 'read' | 'write' | 'bash' | 'webfetch' | 'ask' | 'mcp';

/** The mode-table column a call falls in: every kind but `ask`. */
export type Category = Exclude<ToolKind, 'ask'>;

/** A tool of an MCP server as the policy sees it; `isReadOnly` is the server's own `readOnlyHint`. */
export interface McpTarget {
  server: string;
  tool: string;
  isReadOnly: boolean;
}

/** The file `todo` with persist writes. */
export const TODO_FILE = 'TODO.md';

/** A call that reads a workspace path; `todo` without persist only changes the session's list, so it reads nothing. */
export type ReadAction =
  { kind: 'read'; tool: 'list' | 'read' | 'search'; path: string } | { kind: 'read'; tool: 'todo' };

/** A call that changes files: `replace` names the folder it searched and every file it would change. */
export type WriteAction =
  | { kind: 'write'; tool: 'write' | 'edit'; path: string }
  | { kind: 'write'; tool: 'todo'; path: typeof TODO_FILE }
  | {
      kind: 'write';
      tool: 'replace';
      path: string;
      /** The files the replace will change; without them no allow rule can allow it. */
      files: readonly string[];
    };

/** What a tool call is about to do, as the policy needs to see it: a union keyed by the tool's kind. */
export type ToolAction =
  | ReadAction
  | WriteAction
  | { kind: 'bash'; tool: 'bash'; command: string }
  | { kind: 'webfetch'; tool: 'webfetch'; url: string }
  | { kind: 'ask'; tool: 'ask' }
  | { kind: 'mcp'; tool: 'mcp'; mcp: McpTarget };

/** The actions the mode table judges (every one but `ask`). */
export type JudgedAction = Exclude<ToolAction, { kind: 'ask' }>;

/** Every built-in tool name, and `mcp` for any tool of an MCP server. */
export type ToolName = ToolAction['tool'];

/**
 * Whether a tool declared `declared` may show the policy this action: the action must be of the
 * declared kind, except that a read tool's call may be judged as a write (todo's persist), which is
 * stricter in every mode. A tool can never make its call look milder than what it declared.
 */
export function isActionOfKind(declared: ToolKind, action: ToolAction): boolean {
  return action.kind === declared || (declared === 'read' && action.kind === 'write');
}

/** The actions a tool declared `Kind` may show the policy (isActionOfKind, as a type). */
export type ActionOfKind<Kind extends ToolKind> = Extract<
  ToolAction,
  { kind: Kind | (Kind extends 'read' ? 'write' : never) }
>;

/** Write and Edit rules both govern every tool that changes files, so a deny of either holds for all of them. */
export const FILE_RULE_KINDS: Readonly<Record<'read' | 'write', readonly FileRuleKind[]>> = {
  read: ['read'],
  write: ['write', 'edit'],
};

/** The workspace paths a file call touches, as requested (none for other kinds). */
export function pathsOf(action: ToolAction): readonly string[] {
  switch (action.kind) {
    case 'read':
      return action.tool === 'todo' ? [] : [action.path];
    case 'write':
      return action.tool === 'replace' && action.files.length > 0 ? action.files : [action.path];
    default:
      return [];
  }
}
