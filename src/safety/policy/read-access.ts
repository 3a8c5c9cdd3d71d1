import { toRulePath } from './match-rules.js';
import type { ParsedPermissionRules, PermissionRule } from './permission-rule.js';

/**
 * The Read deny or ask rule that covers a workspace path (or one of the paths), if any. A folder is
 * matched both as `name` and `name/`, so `Read(secrets/)` covers the folder itself. Matching is
 * case-insensitive, as deny and ask rules are everywhere.
 */
export function findReadRule(
  paths: readonly string[],
  rules: readonly PermissionRule[],
  workspaceRoot: string | undefined,
  isFolder = false,
): PermissionRule | undefined {
  return rules.find((rule) => {
    if (rule.kind !== 'read') return false;
    if (rule.foldedMatcher === null) return true;
    const matcher = rule.foldedMatcher;
    return paths.some((requested) => {
      const rulePath = toRulePath(requested, workspaceRoot, 'deny');
      if (rulePath === null) return false;
      return matcher.ignores(rulePath) || (isFolder && matcher.ignores(`${rulePath}/`));
    });
  });
}

/**
 * Whether tools may read a workspace path without asking: no Read deny or ask rule covers it.
 * `search`, `list` and `replace` leave out what this refuses; write tools hide its old content.
 */
export function isPathReadable(
  relativePath: string,
  rules: ParsedPermissionRules,
  workspaceRoot: string | undefined,
  isFolder = false,
): boolean {
  const paths = [relativePath];
  return (
    findReadRule(paths, rules.deny, workspaceRoot, isFolder) === undefined &&
    findReadRule(paths, rules.ask, workspaceRoot, isFolder) === undefined
  );
}

/** isPathReadable bound to one run's rules: the `canRead` every tool context carries. */
export function createReadCheck(
  rules: ParsedPermissionRules,
  workspaceRoot: string | undefined,
): (relativePath: string, isFolder?: boolean) => boolean {
  const readRules = { allow: [], ask: rules.ask, deny: rules.deny };
  const hasReadRules = [...rules.ask, ...rules.deny].some((rule) => rule.kind === 'read');
  if (!hasReadRules) return () => true;
  return (relativePath, isFolder = false) =>
    isPathReadable(relativePath, readRules, workspaceRoot, isFolder);
}
