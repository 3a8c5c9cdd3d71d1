import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/safety/policy/decide.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import { createReadCheck, isPathReadable } from '../../../src/safety/policy/read-access.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';
import type { ToolAction } from '../../../src/safety/policy/tool-action.js';

const ROOT = '/work/space';
const rules = (deny: string[], ask: string[] = [], allow: string[] = []) =>
  parsePermissionRules({ allow, ask, deny });

describe('isPathReadable', () => {
  it.each([
    [['Read(secrets/**)'], 'secrets/a.txt', false, false],
    [['Read(secrets/**)'], 'secrets/deep/b.txt', false, false],
    [['Read(secrets/**)'], 'secrets', true, true],
    [['Read(secrets/**)'], 'src/secrets.ts', false, true],
    [['Read(secrets)'], 'secrets', true, false],
    [['Read(secrets/)'], 'secrets', true, false],
    [['Read(secrets/)'], 'secrets', false, true],
    [['Read(**/*.pem)'], 'a/b/c.pem', false, false],
    [['Read(SECRETS/**)'], 'secrets/a.txt', false, false],
    [['Read'], 'anything.txt', false, false],
    [['Write(secrets/**)'], 'secrets/a.txt', false, true],
  ] as const)('deny %j: %s (folder %s) readable %s', (deny, file, isFolder, readable) => {
    expect(isPathReadable(file, rules([...deny]), ROOT, isFolder)).toBe(readable);
  });

  it('treats a Read ask rule as not readable without asking', () => {
    const check = createReadCheck(rules([], ['Read(docs/private/**)']), ROOT);
    expect(check('docs/private/plan.md')).toBe(false);
    expect(check('docs/public.md')).toBe(true);
  });
});

async function decision(action: ToolAction, mode: SafetyMode, deny: string[] = [], ask: string[] = [], allow: string[] = [], isInteractive = false) {
  return decide(action, { mode, rules: rules(deny, ask, allow), sessionGrants: [], isInteractive, workspaceRoot: ROOT });
} // prettier-ignore

describe('decide: edit and replace read first; secret-bearing writes ask', () => {
  it('refuses edit and replace of a path a Read deny rule covers, even in auto mode', async () => {
    for (const tool of ['edit', 'replace'] as const) {
      const action: ToolAction = tool === 'edit'
        ? { kind: 'write', tool, path: 'secrets/a.txt' }
        : { kind: 'write', tool, path: 'secrets', files: ['secrets/a.txt'] };
      const result = await decision(action, 'auto', ['Read(secrets/**)']);
      expect(result).toMatchObject({ decision: 'deny', rule: 'Read(secrets/**)' });
      expect(result.reason).toContain('reads the file first');
    }
    // write does not read: the Read rule alone does not refuse it (its diff hides the old content).
    expect(await decision({ kind: 'write', tool: 'write', path: 'secrets/a.txt' }, 'auto', ['Read(secrets/**)'])).toMatchObject({ decision: 'allow' });
  });

  it('asks for an edit of a path a Read ask rule covers', async () => {
    const result = await decision({ kind: 'write', tool: 'edit', path: 'docs/p.md' }, 'edit', [], ['Read(docs/**)'], [], true);
    expect(result).toMatchObject({ decision: 'ask', rule: 'Read(docs/**)' });
  });

  it.each(['edit', 'auto'] as const)('asks before writing .env in %s mode; oy run refuses with how to allow it', async (mode) => {
    expect(await decision({ kind: 'write', tool: 'write', path: '.env' }, mode, [], [], [], true)).toMatchObject({ decision: 'ask', rule: 'secret-bearing-file' });
    const refused = await decision({ kind: 'write', tool: 'edit', path: 'config/.env.production' }, mode);
    expect(refused).toMatchObject({ decision: 'deny', rule: 'secret-bearing-file' });
    expect(refused.reason).toContain('add Write(config/.env.production) to "permissions.allow"');
  });

  it('lets an allow rule cover a secret-bearing write, and a deny rule still wins', async () => {
    expect(await decision({ kind: 'write', tool: 'write', path: '.env' }, 'auto', [], [], ['Write(.env)'])).toMatchObject({ decision: 'allow', rule: 'Write(.env)' });
    expect(await decision({ kind: 'write', tool: 'write', path: '.env' }, 'auto', ['Edit(.env)'], [], ['Write(.env)'])).toMatchObject({ decision: 'deny', rule: 'Edit(.env)' });
    expect(await decision({ kind: 'write', tool: 'write', path: '.env' }, 'plan', [], [], ['Write(.env)'])).toMatchObject({ decision: 'deny', rule: 'mode:plan' });
  });

  it('names a few paths of a wide replace and counts the rest', async () => {
    const paths = Array.from({ length: 12 }, (_, index) => `src/f${index}.ts`);
    const result = await decision({ kind: 'write', tool: 'replace', path: 'src', files: paths }, 'plan');
    expect(result.reason).toContain('src/f4.ts and 7 more');
  });
}); // prettier-ignore
