import { afterAll, describe, expect, it } from 'vitest';
import { decide, type ToolAction } from '../../../src/safety/policy/decide.js';
import {
  parsePermissionRule,
  type PermissionRule,
} from '../../../src/safety/policy/permission-rule.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';
import {
  expectedOutcome,
  MODE_TABLE,
  type Outcome,
  type RuleSetup,
  type ToolCase,
} from './mode-table.js';

/** Every tool × every mode × interactive or not × rule outcome, against README.md's "Safety modes" table written out by hand. */
/** The action and a rule that names exactly it; `null` rule: no rule kind governs the tool. */
const TOOLS: Record<ToolCase, { action: ToolAction; rule: string | null; isPlanRefused: boolean }> =
  {
    list: {
      action: { kind: 'read', tool: 'list', path: 'src' },
      rule: 'Read(src)',
      isPlanRefused: false,
    },
    read: {
      action: { kind: 'read', tool: 'read', path: 'src/a.ts' },
      rule: 'Read(src/**)',
      isPlanRefused: false,
    },
    search: {
      action: { kind: 'read', tool: 'search', path: 'src' },
      rule: 'Read(src)',
      isPlanRefused: false,
    },
    todo: { action: { kind: 'read', tool: 'todo' }, rule: null, isPlanRefused: false },
    'todo-persist': {
      action: { kind: 'write', tool: 'todo', path: 'TODO.md' },
      rule: 'Write(TODO.md)',
      isPlanRefused: true,
    },
    write: {
      action: { kind: 'write', tool: 'write', path: 'src/a.ts' },
      rule: 'Write(src/**)',
      isPlanRefused: true,
    },
    edit: {
      action: { kind: 'write', tool: 'edit', path: 'src/a.ts' },
      rule: 'Edit(src/**)',
      isPlanRefused: true,
    },
    replace: {
      action: { kind: 'write', tool: 'replace', path: 'src', files: ['src/a.ts', 'src/b/c.ts'] },
      rule: 'Edit(src/**)',
      isPlanRefused: true,
    },
    bash: {
      action: { kind: 'bash', tool: 'bash', command: 'npm test' },
      rule: 'Bash(npm test)',
      isPlanRefused: true,
    },
    webfetch: {
      action: { kind: 'webfetch', tool: 'webfetch', url: 'https://docs.python.org/3/' },
      rule: 'WebFetch(domain:docs.python.org)',
      isPlanRefused: false,
    },
    ask: { action: { kind: 'ask', tool: 'ask' }, rule: null, isPlanRefused: false },
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

/** The expected outcome for this file's actions and rules. */
function expected(
  tool: ToolCase,
  mode: SafetyMode,
  isInteractive: boolean,
  setup: RuleSetup,
): Outcome {
  const spec = TOOLS[tool];
  return expectedOutcome(tool, mode, isInteractive, setup, spec.rule !== null, spec.isPlanRefused);
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
