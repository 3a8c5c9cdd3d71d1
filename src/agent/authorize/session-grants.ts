import { hostOfUrl } from '../../safety/policy/match-rules.js';
import { parsePermissionRule, type PermissionRule } from '../../safety/policy/permission-rule.js';
import type { ToolAction } from '../../safety/policy/tool-action.js';

/**
 * "Always allow" answers of one session (agent.md "Permission rules"): allow rules kept in memory only,
 * below every deny and ask rule, listed by chat's /permissions and never written to disk.
 */
export class SessionGrants {
  readonly #rules: PermissionRule[] = [];

  /** The rules as parsed, for decide()'s `sessionGrants`. */
  get rules(): readonly PermissionRule[] {
    return this.#rules;
  }

  /** The rule texts, oldest first. */
  list(): string[] {
    return this.#rules.map((rule) => rule.text);
  }

  /** Adds the narrowest rules that allow this action again; returns their texts (none when no rule can say it). */
  grant(action: ToolAction): string[] {
    const added: string[] = [];
    for (const text of grantRulesFor(action)) {
      const rule = tryParse(text);
      if (rule === undefined || this.list().includes(rule.text)) continue;
      this.#rules.push(rule);
      added.push(rule.text);
    }
    return added;
  }
}

/** Exact rules only: the command as written, the paths as requested, the host of the URL. */
export function grantRulesFor(action: ToolAction): string[] {
  switch (action.tool) {
    case 'bash':
      return action.command === undefined ? [] : [`Bash(${action.command.trim()})`];
    case 'webfetch': {
      const host = hostOfUrl(action.url ?? '');
      return host === null ? [] : [`WebFetch(domain:${host})`];
    }
    case 'read':
      return action.path === undefined ? [] : [`Read(${action.path})`];
    case 'todo':
      return action.persist === true ? ['Write(TODO.md)'] : [];
    case 'write':
    case 'edit':
    case 'replace': {
      const paths = action.paths?.length ? action.paths : action.path ? [action.path] : [];
      return paths.map((item) => `Write(${item})`);
    }
    default:
      return [];
  }
}

/** A compound or dynamic command has no single-rule form; the answer then holds for this call only. */
function tryParse(text: string): PermissionRule | undefined {
  try {
    return parsePermissionRule(text);
  } catch {
    return undefined;
  }
}
