import type { ConfigFile } from '../../config/config-schema.js';
import { parsePermissionRule } from '../../safety/policy/permission-rule.js';

/** Every permission rule of a valid file that the policy would refuse, as `permissions.<list>.<n>: reason`. */
export function findRuleProblems(file: ConfigFile): string[] {
  const problems: string[] = [];
  for (const list of ['allow', 'ask', 'deny'] as const) {
    for (const [index, rule] of (file.permissions?.[list] ?? []).entries()) {
      try {
        parsePermissionRule(rule);
      } catch (error) {
        problems.push(`permissions.${list}.${index}: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}
