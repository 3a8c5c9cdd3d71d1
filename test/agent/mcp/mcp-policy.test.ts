import { afterAll, describe, expect, it } from 'vitest';
import { describeMcpContent } from '../../../src/agent/mcp/describe-mcp-content.js';
import { MAX_TOOL_NAME_CHARS, nameMcpTool } from '../../../src/agent/mcp/name-mcp-tool.js';
import { decideWithSplit } from '../../../src/safety/policy/decide.js';
import {
  parsePermissionRule,
  parsePermissionRules,
} from '../../../src/safety/policy/permission-rule.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';
import type { ToolAction } from '../../../src/safety/policy/tool-action.js';

/** MCP tools under the policy: the mode table, Mcp() rules, names the providers accept. */
let cases = 0;
afterAll(() => console.log(`mcp policy: ${cases} cases`));

function action(tool: string, isReadOnly: boolean): ToolAction {
  return { kind: 'mcp', tool: 'mcp', mcp: { server: 'gh', tool, isReadOnly } };
}

function decision(
  mode: SafetyMode,
  call: ToolAction,
  rules: { allow?: string[]; ask?: string[]; deny?: string[] } = {},
  isInteractive = false,
) {
  cases += 1;
  return decideWithSplit(call, {
    mode,
    rules: parsePermissionRules({ allow: [], ask: [], deny: [], ...rules }),
    sessionGrants: [],
    isInteractive,
  });
}

describe('MCP tools under the mode table', () => {
  it('allows in auto, asks in plan (read-only), ask and edit, and refuses a non-read-only tool in plan', () => {
    expect(decision('auto', action('create_issue', false)).decision).toBe('allow');
    for (const mode of ['ask', 'edit'] as const)
      expect(decision(mode, action('create_issue', false), {}, true).decision).toBe('ask');
    expect(decision('plan', action('search', true), {}, true).decision).toBe('ask');
    const refused = decision('plan', action('create_issue', false), {}, true);
    expect(refused).toMatchObject({ decision: 'deny', rule: 'mode:plan' });
    const unattended = decision('plan', action('search', true));
    expect(unattended.decision).toBe('deny');
    expect(unattended.reason).toContain('Mcp(gh:search)');
  });

  it('applies Mcp rules: deny beats auto and allow, an allow names a server or one tool', () => {
    expect(decision('auto', action('search', true), { deny: ['Mcp(gh)'] })).toMatchObject({
      decision: 'deny',
      rule: 'Mcp(gh)',
    });
    expect(
      decision('auto', action('search', true), { allow: ['Mcp(gh)'], deny: ['Mcp(gh:search)'] })
        .decision,
    ).toBe('deny');
    expect(decision('ask', action('search', true), { allow: ['Mcp(gh)'] }).decision).toBe('allow');
    expect(decision('plan', action('search', true), { allow: ['Mcp(gh:search)'] }).decision).toBe(
      'allow',
    );
    // Control: a rule for another tool or server allows nothing here.
    expect(decision('ask', action('search', true), { allow: ['Mcp(gh:other)'] }).decision).toBe(
      'deny',
    );
    expect(decision('ask', action('search', true), { allow: ['Mcp(jira)'] }).decision).toBe('deny');
    // An allow rule never lets a non-read-only tool run in plan mode.
    expect(decision('plan', action('create_issue', false), { allow: ['Mcp(gh)'] }).decision).toBe(
      'deny',
    );
    // Nor do other kinds of rule match an MCP tool.
    expect(decision('ask', action('search', true), { allow: ['Bash', 'Read'] }).decision).toBe(
      'deny',
    );
  });

  it('parses Mcp rules and refuses malformed ones', () => {
    cases += 1;
    expect(parsePermissionRule('Mcp(gh:search)')).toMatchObject({ server: 'gh', tool: 'search' });
    expect(parsePermissionRule('Mcp')).toMatchObject({ server: null, tool: null });
    for (const bad of ['Mcp()', 'Mcp(a:b:c)', 'Mcp(a b)', 'Mcp(gh:)'])
      expect(() => parsePermissionRule(bad), bad).toThrow(/invalid permission rule/);
  });
});

describe('MCP tool names and results', () => {
  it('names tools in the characters and length every provider accepts, never twice the same', () => {
    cases += 1;
    const taken = new Set<string>();
    expect(nameMcpTool('gh', 'search', taken)).toBe('mcp__gh__search');
    const names = ['a.b', 'a_b', 'x'.repeat(100), 'x'.repeat(101), 'ünï'].map((tool) => {
      const name = nameMcpTool('gh', tool, taken);
      taken.add(name);
      return name;
    });
    for (const name of names) {
      expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_CHARS);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  it('keeps text, and only notes images and resources', () => {
    cases += 1;
    const output = describeMcpContent({
      isError: false,
      content: [
        { type: 'text', text: 'one' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'resource', resource: { uri: 'file:///etc/passwd', text: 'root:x:0:0' } },
        { type: 'text', text: 'two' },
      ],
    });
    expect(output.content).toBe('one\ntwo');
    expect(JSON.stringify(output)).not.toContain('root:x');
    expect(JSON.stringify(output)).not.toContain('AAAA');
    expect(output.notes).toHaveLength(2);
  });
});
