import path from 'node:path';
import type { SimpleCommand } from './command-lexer.js';
import { withoutGlobalOptions } from './global-options.js';
import type { PermissionRule } from './permission-rule.js';
import type { McpTarget } from './tool-action.js';

/** Which list a rule came from: allow rules match strictly, deny and ask rules match generously. */
export type RuleList = 'allow' | 'ask' | 'deny';

type BashRule = Extract<PermissionRule, { kind: 'bash' }>;
type FileRule = Extract<PermissionRule, { kind: 'read' | 'write' | 'edit' }>;
type WebFetchRule = Extract<PermissionRule, { kind: 'webfetch' }>;
type McpRule = Extract<PermissionRule, { kind: 'mcp' }>;

/**
 * Whether an allow rule allows this simple command: exact rules need the whole literal command,
 * prefix rules its first words; a redirection that touches a file or a dynamic assignment never matches.
 */
export function allowRuleMatchesCommand(rule: BashRule, command: SimpleCommand): boolean {
  if (rule.words === null) return true;
  if (command.hasDynamicAssignment || command.redirections.some((r) => !r.isHarmless)) return false;
  const words = [...command.assignments, ...command.argv];
  if (!startsWithWords(words, rule.words)) return false;
  return rule.isPrefix || (!command.isDynamic && words.length === rule.words.length);
}

/**
 * Whether a deny or ask rule may match this simple command. It looks past assignments, a path on the
 * command name (`/bin/rm`) and options before a subcommand (`git -C . push`), and an unknown word
 * counts as a match. Wrappers are seen through before this: each command they run is its own entry.
 */
export function restrictiveRuleMayMatchCommand(rule: BashRule, command: SimpleCommand): boolean {
  if (rule.words === null) return true;
  const ruleWords = rule.words;
  return candidateWordLists(command).some((words) =>
    mayMatch(ruleWords, rule.isPrefix, words, command.isDynamic),
  );
}

function startsWithWords(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= words.length && prefix.every((word, index) => words[index] === word);
}

function mayMatch(
  ruleWords: readonly string[],
  isPrefix: boolean,
  words: readonly string[],
  isCut: boolean,
): boolean {
  for (const [index, ruleWord] of ruleWords.entries()) {
    const word = words[index];
    if (word === undefined) return isCut;
    if (word !== ruleWord) return false;
  }
  return isPrefix || isCut || words.length === ruleWords.length;
}

function candidateWordLists(command: SimpleCommand): string[][] {
  const [first, ...rest] = command.argv;
  if (first === undefined) return [command.assignments];
  const named = [path.posix.basename(first), ...rest];
  return [
    [...command.assignments, ...command.argv],
    command.argv,
    named,
    ...withoutGlobalOptions(named),
  ];
}

/**
 * A workspace-relative POSIX path for rule matching, or null when the path cannot be named relative to
 * the workspace (outside it, or absolute with no root known): then only bare rules like `Read` match.
 */
export function toRulePath(
  requested: string,
  workspaceRoot: string | undefined,
  list: RuleList,
): string | null {
  // Deny and ask rules read `src\x` as `src/x` too, so a Windows separator cannot slip past them.
  let candidate = list === 'allow' ? requested : requested.replaceAll('\\', '/');
  if (path.posix.isAbsolute(candidate)) {
    if (workspaceRoot === undefined) return null;
    candidate = path.posix.relative(workspaceRoot, candidate);
  }
  const normalised = path.posix.normalize(candidate).replace(/\/+$/u, '');
  if (
    normalised === '.' ||
    normalised === '' ||
    normalised === '..' ||
    normalised.startsWith('../')
  )
    return null;
  if (path.posix.isAbsolute(normalised)) return null;
  return normalised;
}

/** Whether a Read, Write or Edit rule matches a path prepared by toRulePath. */
export function fileRuleMatches(rule: FileRule, rulePath: string | null, list: RuleList): boolean {
  if (rule.pattern === null) return true;
  if (rulePath === null) return false;
  const matcher = list === 'allow' ? rule.exactMatcher : rule.foldedMatcher;
  return matcher?.ignores(rulePath) ?? false;
}

/** The lower-case host of a URL without a trailing dot or IPv6 brackets, or null when it is not a URL. */
export function hostOfUrl(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/u, '');
    return host.replace(/^\[(.*)\]$/u, '$1') || null;
  } catch {
    return null;
  }
}

/** Whether a WebFetch rule matches a host: exactly, or as a subdomain for `*.example.com`. */
export function webFetchRuleMatches(rule: WebFetchRule, host: string | null): boolean {
  if (rule.domain === null) return true;
  if (host === null) return false;
  if (rule.domain.startsWith('*.')) return host.endsWith(rule.domain.slice(1));
  return host === rule.domain;
}

/** Whether an Mcp rule names this server (and tool): exact names, no patterns. */
export function mcpRuleMatches(rule: McpRule, target: McpTarget): boolean {
  if (rule.server !== null && rule.server !== target.server) return false;
  return rule.tool === null || rule.tool === target.tool;
}
