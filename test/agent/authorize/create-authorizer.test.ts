import { describe, expect, it } from 'vitest';
import {
  createAuthorizer,
  type Approver,
  type ApprovalEvent,
} from '../../../src/agent/authorize/create-authorizer.js';
import { SessionGrants } from '../../../src/agent/authorize/session-grants.js';
import { offerGrant } from '../../../src/agent/authorize/offer-grant.js';
import type { ApprovalRequest } from '../../../src/agent/tools/tool-types.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';
import type { ToolAction } from '../../../src/safety/policy/tool-action.js';
import { createRedactor } from '../../../src/safety/redact/index.js';
import { randomChars } from '../../support/vendor-token-samples.js';

const ROOT = '/work/space';

function setup(options: {
  mode: SafetyMode;
  isInteractive: boolean;
  approver?: Approver;
  deny?: string[];
  redact?: (text: string) => string;
}) {
  const events: ApprovalEvent[] = [];
  const grants = new SessionGrants();
  const authorize = createAuthorizer({
    redact: options.redact ?? ((text) => text),
    mode: options.mode,
    rules: parsePermissionRules({ allow: [], ask: [], deny: options.deny ?? [] }),
    grants,
    workspaceRoot: ROOT,
    ...(options.isInteractive
      ? { interaction: { approve: options.approver ?? noAnswer, ask: async () => '' } }
      : {}),
    onApproval: (event) => void events.push(event),
  });
  return { authorize, events, grants };
}

/** A person who never says yes (the approver a test did not need). */
const noAnswer: Approver = async () => 'no';

function request(action: ToolAction): ApprovalRequest {
  return { tool: action.tool, toolCallId: 'call_1', action };
}

describe('createAuthorizer', () => {
  it('allows what the mode allows, and records it', async () => {
    const { authorize, events } = setup({ mode: 'edit', isInteractive: false });
    expect(await authorize(request({ kind: 'write', tool: 'write', path: 'a.txt' }))).toEqual({
      allowed: true,
      rule: 'mode:edit',
    });
    expect(events).toEqual([
      expect.objectContaining({
        type: 'approval',
        toolCallId: 'call_1',
        tool: 'write',
        decision: 'allow',
        outcome: 'allowed',
        rule: 'mode:edit',
      }),
    ]);
  });

  it("keeps decide()'s explanation when a non-interactive ask becomes a deny", async () => {
    const { authorize, events } = setup({ mode: 'ask', isInteractive: false });
    const result = await authorize(request({ kind: 'bash', tool: 'bash', command: 'npm test' }));
    expect(result.allowed).toBe(false);
    expect(!result.allowed && result.reason).toContain('Bash(npm test)');
    expect(events[0]).toMatchObject({ decision: 'deny', outcome: 'denied', rule: 'mode:ask' });
  });

  it('refuses an ask when no one can answer, without asking anyone', async () => {
    const { authorize, events } = setup({ mode: 'ask', isInteractive: false });
    const result = await authorize(request({ kind: 'write', tool: 'write', path: 'a.txt' }));
    expect(result.allowed).toBe(false);
    expect(events[0]).toMatchObject({ decision: 'deny', outcome: 'denied' });
  });

  it.each([
    ['yes', true, []],
    ['no', false, []],
    ['always', true, ['Write(src/a.ts)']],
  ] as const)(
    'an interactive answer %s: allowed %s, grants %j',
    async (answer, allowed, granted) => {
      const seen: string[] = [];
      const { authorize, events, grants } = setup({
        mode: 'ask',
        isInteractive: true,
        approver: async (_request, decision) => {
          seen.push(decision.decision);
          return answer;
        },
      });
      const result = await authorize(request({ kind: 'write', tool: 'edit', path: 'src/a.ts' }));
      expect(seen).toEqual(['ask']);
      expect(result.allowed).toBe(allowed);
      expect(grants.list()).toEqual(granted);
      expect(events[0]).toMatchObject({ decision: 'ask', outcome: allowed ? 'allowed' : 'denied' });
    },
  );

  it('never asks about what a deny rule refuses, and a grant does not override it', async () => {
    let asked = 0;
    const { authorize, grants } = setup({
      mode: 'ask',
      isInteractive: true,
      deny: ['Write(secrets/**)'],
      approver: async () => {
        asked += 1;
        return 'always';
      },
    });
    grants.grant({ kind: 'write', tool: 'write', path: 'secrets/key.txt' });
    const result = await authorize(
      request({ kind: 'write', tool: 'write', path: 'secrets/key.txt' }),
    );
    expect(result).toMatchObject({ allowed: false, rule: 'Write(secrets/**)' });
    expect(asked).toBe(0);
  });
});

describe('the approval event', () => {
  const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

  it('redacts every text in it, whole before the summary is cut, with the grant it made', async () => {
    const secret = `ghp_${randomChars(ALNUM, 36)}`;
    // The secret straddles the summary's cut: redacted first, nothing of it is left.
    const command = `${'a'.repeat(30)} ${secret} ${'b'.repeat(100)} tail`;
    const redactor = createRedactor();
    const guarded = setup({
      mode: 'ask',
      isInteractive: true,
      approver: async () => 'always',
      redact: (text) => redactor.redact(text).text,
    });
    await guarded.authorize(request({ kind: 'bash', tool: 'bash', command }));
    const event = guarded.events[0]!;
    expect(event).toMatchObject({ answer: 'always', askedBy: 'mode:ask', outcome: 'allowed' });
    expect(event.granted).toHaveLength(1);
    expect(JSON.stringify(event)).not.toContain(secret);
    expect(JSON.stringify(event)).not.toContain(secret.slice(0, 12));
    // The cut falls inside the placeholder, never inside the secret; what is left out is counted.
    expect(event.summary).toMatch(
      /^run a{30} \[REDACTED:[a-z-]*⟨… [\d,]+ characters not shown …⟩b+ tail$/u,
    );
    expect(event.granted![0]).toContain('[REDACTED:github-token:1] bbbb');
    // The grant itself is exact and unredacted in memory: only what is shown and saved is redacted.
    expect(guarded.grants.list()).toEqual([`Bash(${command})`]);

    // Control: without the redactor the same event carries the secret, so the canary can fire.
    const open = setup({ mode: 'ask', isInteractive: true, approver: async () => 'always' });
    await open.authorize(request({ kind: 'bash', tool: 'bash', command }));
    expect(JSON.stringify(open.events[0])).toContain(secret);
  });
});

describe('session grants', () => {
  it.each([
    [{ kind: 'bash', tool: 'bash', command: 'npm test' }, ['Bash(npm test)']],
    [
      { kind: 'webfetch', tool: 'webfetch', url: 'https://docs.python.org/3/library' },
      ['WebFetch(domain:docs.python.org)'],
    ],
    [{ kind: 'write', tool: 'write', path: 'src/a.ts' }, ['Write(src/a.ts)']],
    [
      { kind: 'write', tool: 'replace', path: '.', files: ['a.ts', 'b.ts'] },
      ['Write(a.ts)', 'Write(b.ts)'],
    ],
    [{ kind: 'write', tool: 'todo', path: 'TODO.md' }, ['Write(TODO.md)']],
    [{ kind: 'read', tool: 'read', path: '.env' }, ['Read(.env)']],
    [{ kind: 'read', tool: 'list', path: '.' }, []],
  ] as const)('grants the narrowest rule for %j', (action, rules) => {
    expect(offerGrant(action as ToolAction, undefined).rules.map((rule) => rule.text)).toEqual(
      rules,
    );
  });

  it('grants each part of a compound command exactly, nothing for a dynamic one, and lists each rule once', () => {
    const grants = new SessionGrants();
    expect(grants.grant({ kind: 'bash', tool: 'bash', command: 'echo "$HOME" && ls' })).toEqual([]);
    expect(grants.grant({ kind: 'bash', tool: 'bash', command: 'npm test && ls src' })).toEqual([
      'Bash(npm test)',
      'Bash(ls src)',
    ]);
    expect(grants.grant({ kind: 'bash', tool: 'bash', command: 'npm test' })).toEqual([]);
    expect(grants.list()).toEqual(['Bash(npm test)', 'Bash(ls src)']);
  });
});
