import type { CommandSplit } from './command-lexer.js';
import {
  allowRuleMatchesCommand,
  fileRuleMatches,
  hostOfUrl,
  mcpRuleMatches,
  restrictiveRuleMayMatchCommand,
  toRulePath,
  webFetchRuleMatches,
  type RuleList,
} from './match-rules.js';
import type { PermissionRule } from './permission-rule.js';
import { FILE_RULE_KINDS, pathsOf, type JudgedAction } from './tool-action.js';

/** The first deny or ask rule that matches (or may match) any part of the action. */
export function findRestrictiveRule(
  action: JudgedAction,
  rules: readonly PermissionRule[],
  list: RuleList,
  workspaceRoot: string | undefined,
  split: CommandSplit | undefined,
): PermissionRule | undefined {
  return rules.find((rule) => {
    if (rule.kind === 'bash') {
      if (action.kind !== 'bash' || split === undefined) return false;
      const commands = split.kind === 'parsed' ? split.commands : split.partial;
      return (
        rule.words === null ||
        commands.some((command) => restrictiveRuleMayMatchCommand(rule, command))
      );
    }
    if (rule.kind === 'webfetch')
      return action.kind === 'webfetch' && webFetchRuleMatches(rule, hostOfUrl(action.url));
    if (rule.kind === 'mcp') return action.kind === 'mcp' && mcpRuleMatches(rule, action.mcp);
    if (action.kind !== 'read' && action.kind !== 'write') return false;
    if (!FILE_RULE_KINDS[action.kind].includes(rule.kind)) return false;
    return pathsOf(action).some((p) =>
      fileRuleMatches(rule, toRulePath(p, workspaceRoot, list), list),
    );
  });
}

/** The allow rules that together allow every part of the action, joined for the message; undefined if any part is not allowed. */
export function findAllowRules(
  action: JudgedAction,
  rules: readonly PermissionRule[],
  workspaceRoot: string | undefined,
  split: CommandSplit | undefined,
): string | undefined {
  const used = new Set<string>();
  const everyPart = <T>(
    parts: readonly T[],
    matches: (rule: PermissionRule, part: T) => boolean,
  ): boolean =>
    parts.length > 0 &&
    parts.every((part) => {
      const rule = rules.find((candidate) => matches(candidate, part));
      if (rule !== undefined) used.add(rule.text);
      return rule !== undefined;
    });
  let isAllowed = false;
  if (action.kind === 'bash') {
    if (split?.kind !== 'parsed') return undefined;
    // A transparent wrapper (`env`, `nice`, `xargs`) is judged by what it runs, which follows it in the list.
    isAllowed = everyPart(
      split.commands.filter((command) => command.isTransparent !== true),
      (rule, command) => rule.kind === 'bash' && allowRuleMatchesCommand(rule, command),
    );
  } else if (action.kind === 'webfetch') {
    const host = hostOfUrl(action.url);
    isAllowed = everyPart(
      [host],
      (rule, h) => rule.kind === 'webfetch' && webFetchRuleMatches(rule, h),
    );
  } else if (action.kind === 'mcp') {
    isAllowed = everyPart(
      [action.mcp],
      (rule, target) => rule.kind === 'mcp' && mcpRuleMatches(rule, target),
    );
  } else {
    if (action.tool === 'replace' && action.files.length === 0) return undefined;
    const kinds = FILE_RULE_KINDS[action.kind];
    const paths = pathsOf(action).map((p) => toRulePath(p, workspaceRoot, 'allow'));
    isAllowed = everyPart(
      paths,
      (rule, p) =>
        rule.kind !== 'bash' &&
        rule.kind !== 'webfetch' &&
        rule.kind !== 'mcp' &&
        kinds.includes(rule.kind) &&
        fileRuleMatches(rule, p, 'allow'),
    );
  }
  return isAllowed ? [...used].join(', ') : undefined;
}
