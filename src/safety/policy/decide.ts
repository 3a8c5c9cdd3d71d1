import { isProtectedName } from '../paths/protected-names.js';
import { MODE_TABLE } from './mode-table.js';
import { isSecretBearingFile } from '../secret-files.js';
import type { CommandSplit } from './command-lexer.js';
import { findAllowRules, findRestrictiveRule } from './find-rules.js';
import { hostOfUrl, toRulePath } from './match-rules.js';
import { findReadRule } from './read-access.js';
import type { ParsedPermissionRules, PermissionRule } from './permission-rule.js';
import type { SafetyMode } from './safety-mode.js';
import { splitCommand, splitCommandQuickly } from './split-command.js';
import {
  pathsOf,
  TODO_FILE,
  type Category,
  type JudgedAction,
  type ToolAction,
} from './tool-action.js';

export type { ToolAction, ToolKind, ToolName } from './tool-action.js';

export interface DecisionContext {
  mode: SafetyMode;
  rules: ParsedPermissionRules;
  /** "Always allow" answers of this session: allow rules, below every deny and ask rule. */
  sessionGrants: readonly PermissionRule[];
  isInteractive: boolean;
  /** Lets absolute paths inside the workspace match relative rules. */
  workspaceRoot?: string;
}

export interface Decision {
  decision: 'allow' | 'ask' | 'deny';
  /** The rule or built-in that decided: a rule as the user wrote it, or one of BUILTIN_RULES / `mode:<name>`. */
  rule?: string;
  reason: string;
  /** Set on a deny that would have been an ask, had someone been there to answer (a non-interactive run). */
  isUnattended?: true;
}

/** Names of the decisions no user rule made, so every refusal still names what refused it. */
export const BUILTIN_RULES = {
  protectedPath: 'protected:.git/.oy',
  secretFile: 'secret-bearing-file',
  uncertainCommand: 'uncertain-command',
  interactiveOnly: 'interactive-only',
} as const;

/** Decide one tool call: deny rules, then built-in refusals, then ask rules, then allow rules, then the mode. */
export async function decide(action: ToolAction, context: DecisionContext): Promise<Decision> {
  const split = action.kind === 'bash' ? await splitCommand(action.command) : undefined;
  return decideWithSplit(action, context, split);
}

/** decide() with the command already split by splitCommand (synchronous); without it, the lexer and the wrapper resolution split. */
export function decideWithSplit(
  action: ToolAction,
  context: DecisionContext,
  commandSplit?: CommandSplit,
): Decision {
  // Without a split from splitCommand, the lexer still splits: a bash call is never judged unsplit.
  const split =
    commandSplit ??
    (action.kind === 'bash' ? splitCommandQuickly(action.command).split : undefined);
  if (action.kind === 'ask') {
    if (context.isInteractive)
      return { decision: 'allow', reason: 'the ask tool asks the user a question' };
    return {
      decision: 'deny',
      rule: BUILTIN_RULES.interactiveOnly,
      reason:
        'the ask tool works only in interactive runs (oy chat); decide without asking, and say what you assumed',
    };
  }
  const category: Category = action.kind;
  const subject = describe(action);

  const denied = findRestrictiveRule(
    action,
    context.rules.deny,
    'deny',
    context.workspaceRoot,
    split,
  );
  if (denied !== undefined)
    return {
      decision: 'deny',
      rule: denied.text,
      reason: `${subject} is refused by the deny rule ${denied.text}`,
    };
  // edit and replace read the file before changing it, so the Read rules hold for them too.
  const readsFirst = action.tool === 'edit' || action.tool === 'replace';
  const readDenied = readsFirst
    ? findReadRule(pathsOf(action), context.rules.deny, context.workspaceRoot)
    : undefined;
  if (readDenied !== undefined)
    return {
      decision: 'deny',
      rule: readDenied.text,
      reason: `${subject} is refused: ${action.tool} reads the file first, and the deny rule ${readDenied.text} refuses reading it`,
    };

  // A mode that refuses a kind outright (plan: writes and shell) refuses it before any rule can allow it;
  // an MCP tool its server does not mark read-only may change anything, so plan mode treats it as a write.
  const isMcpWrite = action.kind === 'mcp' && !action.mcp.isReadOnly;
  if (MODE_TABLE[context.mode][category] === 'deny' || (context.mode === 'plan' && isMcpWrite)) {
    return {
      decision: 'deny',
      rule: `mode:${context.mode}`,
      reason: `${subject} is refused: ${context.mode} mode changes nothing (no writes, no shell); the user can switch with --mode edit or /mode edit`,
    };
  }
  if (category === 'write') {
    const guarded = pathsOf(action).find((p) => isProtectedPath(p, context.workspaceRoot));
    if (guarded !== undefined) {
      return {
        decision: 'deny',
        rule: BUILTIN_RULES.protectedPath,
        reason: `${subject} is refused: the agent never writes under .git/ or .oy/ (${guarded}), in any mode`,
      };
    }
  }

  const asked = findRestrictiveRule(action, context.rules.ask, 'ask', context.workspaceRoot, split);
  const askedToRead = readsFirst
    ? findReadRule(pathsOf(action), context.rules.ask, context.workspaceRoot)
    : undefined;
  const askedBy = asked ?? askedToRead;
  if (askedBy !== undefined) {
    return settleAsk(
      context,
      askedBy.text,
      `${subject} needs approval by the ask rule ${askedBy.text}`,
      `remove the ask rule ${askedBy.text} from the config, or run interactively`,
    );
  }
  if (action.tool === 'read' && isSecretBearingFile(action.path)) {
    return settleAsk(
      context,
      BUILTIN_RULES.secretFile,
      `${subject} is a secret-bearing file and needs approval`,
      'run interactively (oy chat) and approve the read; no mode or rule allows it unattended',
    );
  }
  const secretWrite = decideSecretWrite(action, context, subject);
  if (secretWrite !== undefined) return secretWrite;
  if (split?.kind === 'uncertain' && !(context.mode === 'auto' && !hasBashRules(context.rules))) {
    return settleAsk(
      context,
      BUILTIN_RULES.uncertainCommand,
      `${subject} cannot be checked with certainty (${split.reason}), so no rule can allow it`,
      'approve it in an interactive run, or rewrite it as plain commands (no variables, here-documents or control flow)',
    );
  }

  const allowedBy = findAllowRules(
    action,
    [...context.rules.allow, ...context.sessionGrants],
    context.workspaceRoot,
    split,
  );
  if (allowedBy !== undefined)
    return { decision: 'allow', rule: allowedBy, reason: `${subject} is allowed by ${allowedBy}` };

  const modeRule = `mode:${context.mode}`;
  const outcome = MODE_TABLE[context.mode][category];
  if (outcome === 'allow')
    return { decision: 'allow', rule: modeRule, reason: `${context.mode} mode allows ${subject}` };
  return settleAsk(
    context,
    modeRule,
    `${context.mode} mode asks before ${subject}`,
    howToAllow(action, context.mode, split),
  );
}

/** Writing a secret-bearing file asks in every mode, unless allow rules (or session grants) cover every path. */
function decideSecretWrite(
  action: JudgedAction,
  context: DecisionContext,
  subject: string,
): Decision | undefined {
  if (action.kind !== 'write') return undefined;
  const secret = pathsOf(action).find((p) => isSecretBearingFile(p));
  if (secret === undefined) return undefined;
  const rules = [...context.rules.allow, ...context.sessionGrants];
  const allowedBy = findAllowRules(action, rules, context.workspaceRoot, undefined);
  if (allowedBy !== undefined)
    return { decision: 'allow', rule: allowedBy, reason: `${subject} is allowed by ${allowedBy}` };
  return settleAsk(
    context,
    BUILTIN_RULES.secretFile,
    `${subject} changes a secret-bearing file (${secret}), which needs approval in every mode`,
    `run interactively (oy chat) and approve it, or add Write(${secret}) to "permissions.allow" in the user config`,
  );
}

/** An ask stays an ask when someone can answer; otherwise it is a deny that says why and how to allow it. */
function settleAsk(context: DecisionContext, rule: string, why: string, howTo: string): Decision {
  if (context.isInteractive) return { decision: 'ask', rule, reason: why };
  return {
    decision: 'deny',
    rule,
    reason: `${why}, and this run cannot ask (non-interactive), so it is refused. To allow it: ${howTo}.`,
    isUnattended: true,
  };
}

function howToAllow(
  action: JudgedAction,
  mode: SafetyMode,
  split: CommandSplit | undefined,
): string {
  if (action.kind === 'write') {
    const example = pathsOf(action)[0] ?? 'src/**';
    return `run with --mode edit (or auto), or add Write(${example}) to "permissions.allow" in the user config`;
  }
  if (action.kind === 'mcp') {
    const { server, tool } = action.mcp;
    return `run with --mode auto, or add Mcp(${server}:${tool}) (or Mcp(${server}) for every tool of the server) to "permissions.allow" in the user config`;
  }
  if (action.kind === 'webfetch') {
    const host = hostOfUrl(action.url) ?? 'example.com';
    return `run with --mode auto, or add WebFetch(domain:${host}) to "permissions.allow" in the user config`;
  }
  // A transparent wrapper (`nice make`) is allowed through what it runs, so the example names that.
  const first =
    split?.kind === 'parsed' ? split.commands.find((c) => c.isTransparent !== true) : undefined;
  const example =
    first === undefined ? 'npm test' : [...first.assignments, ...first.argv].join(' ');
  const modeHint = mode === 'auto' ? '' : 'run with --mode auto, or ';
  return `${modeHint}add Bash(${example}) (or a prefix rule like Bash(${example}:*)) for every part to "permissions.allow" in the user config`;
}
/** The call in a refusal's words: `the command "npm test"`, `write src/a.ts`, `fetching https://…`. */
function describe(action: JudgedAction): string {
  switch (action.kind) {
    case 'bash':
      return `the command ${JSON.stringify(action.command)}`;
    case 'webfetch':
      return `fetching ${action.url}`;
    case 'mcp':
      return `the MCP tool ${action.mcp.server}:${action.mcp.tool}`;
    case 'read':
      return action.tool === 'todo' ? 'updating the todo list' : `${action.tool} ${action.path}`;
    case 'write':
      if (action.tool === 'todo') return `writing ${TODO_FILE}`;
      if (action.tool === 'replace') return `replace ${listPaths(action.files) ?? action.path}`;
      return `${action.tool} ${action.path}`;
  }
}
// A replace over a folder may name hundreds of files; a refusal names a few and counts the rest.
const MAX_NAMED_PATHS = 5;
function listPaths(paths: readonly string[]): string | undefined {
  if (paths.length === 0) return undefined;
  if (paths.length <= MAX_NAMED_PATHS) return paths.join(', ');
  return `${paths.slice(0, MAX_NAMED_PATHS).join(', ')} and ${paths.length - MAX_NAMED_PATHS} more`;
}
function isProtectedPath(requested: string, workspaceRoot: string | undefined): boolean {
  const relative = toRulePath(requested, workspaceRoot, 'deny') ?? requested.replaceAll('\\', '/');
  return relative.split('/').some(isProtectedName);
}

function hasBashRules(rules: ParsedPermissionRules): boolean {
  return [...rules.deny, ...rules.ask].some((rule) => rule.kind === 'bash');
}
