import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';

/** README.md's "Safety modes" table and rule precedence, written out by hand once for the policy and tool matrices. */

export type Outcome = 'allow' | 'ask' | 'deny';
export type ToolCase =
  | 'list'
  | 'read'
  | 'search'
  | 'todo'
  | 'todo-persist'
  | 'write'
  | 'edit'
  | 'replace'
  | 'bash'
  | 'webfetch'
  | 'ask';
export type RuleSetup =
  'none' | 'allow' | 'ask' | 'deny' | 'grant' | 'deny+allow+grant' | 'ask+allow';

// README.md, "Safety modes", copied cell by cell ("not offered, and refused if called" is deny).
export const MODE_TABLE: Record<SafetyMode, Record<ToolCase, Outcome>> = {
  plan: { list: 'allow', read: 'allow', search: 'allow', todo: 'allow', 'todo-persist': 'deny', write: 'deny', edit: 'deny', replace: 'deny', bash: 'deny', webfetch: 'ask', ask: 'allow' },
  ask: { list: 'allow', read: 'allow', search: 'allow', todo: 'allow', 'todo-persist': 'ask', write: 'ask', edit: 'ask', replace: 'ask', bash: 'ask', webfetch: 'ask', ask: 'allow' },
  edit: { list: 'allow', read: 'allow', search: 'allow', todo: 'allow', 'todo-persist': 'allow', write: 'allow', edit: 'allow', replace: 'allow', bash: 'ask', webfetch: 'ask', ask: 'allow' },
  auto: { list: 'allow', read: 'allow', search: 'allow', todo: 'allow', 'todo-persist': 'allow', write: 'allow', edit: 'allow', replace: 'allow', bash: 'allow', webfetch: 'allow', ask: 'allow' },
}; // prettier-ignore

/** The expected outcome, reasoned from the precedence in README.md "Permission rules": deny, plan's refusal, ask, allow, mode. */
export function expectedOutcome(
  tool: ToolCase,
  mode: SafetyMode,
  isInteractive: boolean,
  setup: RuleSetup,
  hasRule: boolean,
  isPlanRefused: boolean,
): Outcome {
  if (tool === 'ask') return isInteractive ? 'allow' : 'deny';
  let outcome: Outcome;
  if (hasRule && setup.startsWith('deny')) outcome = 'deny';
  else if (mode === 'plan' && isPlanRefused) outcome = 'deny';
  else if (hasRule && setup.startsWith('ask')) outcome = 'ask';
  else if (hasRule && (setup === 'allow' || setup === 'grant')) outcome = 'allow';
  else outcome = MODE_TABLE[mode][tool];
  return outcome === 'ask' && !isInteractive ? 'deny' : outcome;
}
