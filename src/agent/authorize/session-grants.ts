import type { CommandSplit } from '../../safety/policy/command-lexer.js';
import type { PermissionRule } from '../../safety/policy/permission-rule.js';
import type { ToolAction } from '../../safety/policy/tool-action.js';
import { offerGrant } from './offer-grant.js';

/**
 * "Always allow" answers of one session (README.md "Permission rules"): exact allow rules kept in
 * memory only, below every deny and ask rule, listed by chat's /permissions and never written to disk.
 * A grant is built from what was shown, never parsed back from its text.
 */
export class SessionGrants {
  readonly #rules: PermissionRule[] = [];

  /** The rules, for decide()'s `sessionGrants`. */
  get rules(): readonly PermissionRule[] {
    return this.#rules;
  }

  /** The rule texts, oldest first. */
  list(): string[] {
    return this.#rules.map((rule) => rule.text);
  }

  /** Adds rules an offer held; returns the texts of the new ones. */
  add(rules: readonly PermissionRule[]): string[] {
    const added: string[] = [];
    for (const rule of rules) {
      if (this.#rules.some((known) => known.kind === rule.kind && known.text === rule.text))
        continue;
      this.#rules.push(rule);
      added.push(rule.text);
    }
    return added;
  }

  /** Adds the narrowest rules that allow this action again (offerGrant); returns the new texts. */
  grant(action: ToolAction, split?: CommandSplit): string[] {
    return this.add(offerGrant(action, split).rules);
  }
}
