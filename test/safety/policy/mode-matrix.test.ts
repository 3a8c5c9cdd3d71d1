import { afterAll, describe, expect, it } from 'vitest';
import { decide, type ToolAction } from '../../../src/safety/policy/decide.js';
import {
  parsePermissionRule,
  type PermissionRule,
} from '../../../src/safety/policy/permission-rule.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';

/** Every tool × every mode × interactive or not × rule outcome, against agent.md's table written out by hand. */

type Outcome = 'allow' | 'ask' | 'deny';
type ToolCase =
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
type RuleSetup = 'none' | 'allow' | 'ask' | 'deny' | 'grant' | 'deny+allow+grant' | 'ask+allow';

// agent.md, "Safety modes", copied cell by cell ("not offered, and refused if called" is deny).
const MODE_TABLE: Record<SafetyMode, Record<ToolCase, Outcome>> = {
  plan: { list: 'allow', read: 'allow', search: 'allow', todo: 'allow', 'todo-persist': 'deny', write: 'deny', edit: 'deny', replace: 'deny', bash: 'deny', webfetch: 'ask', ask: 'allow' },
  ask: { list: 'allow', read: 'allow', search: 'allow', todo: 'allow', 'todo-persist': 'ask', write: 'ask', edit: 'ask', replace: 'ask', bash: 'ask', webfetch: 'ask', ask: 'allow' },
  edit: { list: 'allow', read: 'allow', search: 'allow', todo: 'allow', 'todo-persist': 'allow', write: 'allow', edit: 'allow', replace: 'allow', bash: 'ask', webfetch: 'ask', ask: 'allow' },
  auto: { list: 'allow', read: 'allow', search: 'allow', todo: 'allow', 'todo-persist': 'allow', write: 'allow', edit: 'allow', replace: 'allow', bash: 'allow', webfetch: 'allow', ask: 'allow' },
}; // prettier-ignore

/** The action and a rule that names exactly it; `null` rule: no rule kind governs the tool. */
const TOOLS: Record<ToolCase, { action: ToolAction; rule: string | null; isPlanRefused: boolean }> =
  {
    list: { action: { tool: 'list', path: 'src' }, rule: 'Read(src)', isPlanRefused: false },
    read: {
      action: { tool: 'read', path: 'src/a.ts' },
      rule: 'Read(src/**)',
      isPlanRefused: false,
    },
    search: { action: { tool: 'search', path: 'src' }, rule: 'Read(src)', isPlanRefused: false },
    todo: { action: { tool: 'todo' }, rule: null, isPlanRefused: false },
    'todo-persist': {
      action: { tool: 'todo', persist: true },
      rule: 'Write(TODO.md)',
      isPlanRefused: true,
    },
    write: {
      action: { tool: 'write', path: 'src/a.ts' },
      rule: 'Write(src/**)',
      isPlanRefused: true,
    },
    edit: { action: { tool: 'edit', path: 'src/a.ts' }, rule: 'Edit(src/**)', isPlanRefused: true },
    replace: {
      action: { tool: 'replace', path: 'src', paths: ['src/a.ts', 'src/b/c.ts'] },
      rule: 'Edit(src/**)',
      isPlanRefused: true,
    },
    bash: {
      action: { tool: 'bash', command: 'npm test' },
      rule: 'Bash(npm test)',
      isPlanRefused: true,
    },
    webfetch: {
      action: { tool: 'webfetch', url: 'https://docs.python.org/3/' },
      rule: 'WebFetch(domain:docs.python.org)',
      isPlanRefused: false,
    },
    ask: { action: { tool: 'ask' }, rule: null, isPlanRefused: false },
  };

const MODES: SafetyMode[] = ['plan', 'ask', 'edit', 'auto'];
const SETUPS: RuleSetup[] = [
  'none',
  'allow',
  'ask',
  'deny',
  'grant',
  'deny+allow+grant',
  'ask+allow',
];

/** The expected outcome, reasoned from agent.md's precedence: deny, plan's refusal, ask, allow, mode. */
function expected(
  tool: ToolCase,
  mode: SafetyMode,
  isInteractive: boolean,
  setup: RuleSetup,
): Outcome {
  const spec = TOOLS[tool];
  if (tool === 'ask') return isInteractive ? 'allow' : 'deny';
  const hasRule = spec.rule !== null;
  let outcome: Outcome;
  if (hasRule && setup.startsWith('deny')) outcome = 'deny';
  else if (mode === 'plan' && spec.isPlanRefused) outcome = 'deny';
  else if (hasRule && setup.startsWith('ask')) outcome = 'ask';
  else if (hasRule && (setup === 'allow' || setup === 'grant')) outcome = 'allow';
  else outcome = MODE_TABLE[mode][tool];
  return outcome === 'ask' && !isInteractive ? 'deny' : outcome;
}

function rulesFor(tool: ToolCase, setup: RuleSetup) {
  const text = TOOLS[tool].rule ?? 'Bash(unrelated-command)';
  const rule = parsePermissionRule(text);
  const has = (part: string) => setup.split('+').includes(part);
  const list = (part: string): PermissionRule[] => (has(part) ? [rule] : []);
  return {
    rules: { allow: list('allow'), ask: list('ask'), deny: list('deny') },
    sessionGrants: list('grant'),
  };
}

let cases = 0;
afterAll(() => {
  console.log(`mode matrix: ${cases} cases`);
});

describe('mode matrix', () => {
  for (const tool of Object.keys(TOOLS) as ToolCase[]) {
    for (const mode of MODES) {
      for (const isInteractive of [true, false]) {
        for (const setup of SETUPS) {
          const want = expected(tool, mode, isInteractive, setup);
          const label = `${tool} / ${mode} / ${isInteractive ? 'interactive' : 'non-interactive'} / ${setup} -> ${want}`;
          it(label, async () => {
            cases += 1;
            const { rules, sessionGrants } = rulesFor(tool, setup);
            const result = await decide(TOOLS[tool].action, {
              mode,
              rules,
              sessionGrants,
              isInteractive,
            });
            expect(result.decision).toBe(want);
            expect(result.reason.length).toBeGreaterThan(10);
            if (result.decision !== 'allow') expect(result.rule).toBeTruthy();
            if (want === 'deny' && setup.startsWith('deny') && TOOLS[tool].rule !== null) {
              expect(result.rule).toBe(TOOLS[tool].rule);
              expect(result.reason).toContain(TOOLS[tool].rule);
            }
            if (
              want === 'deny' &&
              !isInteractive &&
              MODE_TABLE[mode][tool] === 'ask' &&
              setup === 'none'
            ) {
              expect(result.reason).toContain('non-interactive');
              expect(result.reason).toContain('To allow it');
            }
          });
        }
      }
    }
  }
});
