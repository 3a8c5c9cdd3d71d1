import { afterAll, describe, expect, it } from 'vitest';
import { createAuthorizer } from '../../../src/agent/authorize/create-authorizer.js';
import { SessionGrants } from '../../../src/agent/authorize/session-grants.js';
import type { ApprovalRequest } from '../../../src/agent/tools/tool-types.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import type { ToolAction } from '../../../src/safety/policy/tool-action.js';

/**
 * "Always" grants exactly what was shown (SECURITY.md "Ask means ask, and no is the default"): a command ending in rule syntax is
 * granted as that literal command, never read back as a pattern; a compound command grants each of
 * its parts exactly, and the prompt says so; a path is granted as that one path. Each case then
 * tries neighbours with the same prefix, which must still ask.
 */

interface AlwaysCase {
  /** What the user answers "always" to. */
  action: ToolAction;
  /** The line the prompt shows for "always". */
  summary: string | RegExp;
  /** Asked again (nothing could be remembered)? */
  isRemembered: boolean;
  /** Calls the grant must cover without asking. */
  covered: ToolAction[];
  /** Neighbours that must still ask. */
  stillAsk: ToolAction[];
}

const bash = (command: string): ToolAction => ({ kind: 'bash', tool: 'bash', command });
const write = (path: string): ToolAction => ({ kind: 'write', tool: 'write', path });

const CASES: Record<string, AlwaysCase> = {
  'rm -rf build #:* (a comment that looks like a prefix rule)': {
    action: bash('rm -rf build #:*'),
    summary: 'always: allows exactly `rm -rf build` for this session (this command, no other arguments)',
    isRemembered: true,
    covered: [bash('rm -rf build #:*'), bash('rm -rf build')],
    stillAsk: [bash('rm -rf build/src'), bash('rm -rf build other'), bash('rm -rf buildx'), bash('rm -rf build #x\nrm -rf /')],
  },
  "ls 'src:*' (a quoted rule suffix)": {
    action: bash("ls 'src:*'"),
    summary: "always: allows exactly `ls 'src:*'` for this session (this command, no other arguments)",
    isRemembered: true,
    covered: [bash("ls 'src:*'"), bash('ls "src:*"')],
    stillAsk: [bash('ls src'), bash('ls src:x'), bash("ls 'src:*' -la")],
  },
  'npm run build:* (an unquoted glob)': {
    action: bash('npm run build:*'),
    summary: /^always: cannot be remembered \(`npm run …` is not literal/u,
    isRemembered: false,
    covered: [],
    stillAsk: [bash('npm run build:*'), bash('npm run build:prod'), bash('npm run')],
  },
  'git log * (a trailing star)': {
    action: bash('git log *'),
    summary: /^always: cannot be remembered/u,
    isRemembered: false,
    covered: [],
    stillAsk: [bash('git log *'), bash('git log --all'), bash('git log')],
  },
  "echo '(' (a parenthesis)": {
    action: bash("echo '('"),
    summary: "always: allows exactly `echo '('` for this session (this command, no other arguments)",
    isRemembered: true,
    covered: [bash("echo '('"), bash('echo \\(')],
    stillAsk: [bash("echo '(' x"), bash('echo'), bash("echo '()'")],
  },
  'echo a:\\* (an escaped star)': {
    action: bash('echo a:\\*'),
    summary: "always: allows exactly `echo 'a:*'` for this session (this command, no other arguments)",
    isRemembered: true,
    covered: [bash("echo 'a:*'")],
    stillAsk: [bash('echo a:b'), bash('echo a:')],
  },
  'ls routes | head -3 (a compound command)': {
    action: bash('ls routes | head -3'),
    summary: 'always: allows exactly `ls routes` and `head -3` for this session (each of its 2 parts, no other arguments)',
    isRemembered: true,
    covered: [bash('ls routes | head -3'), bash('ls routes'), bash('head -3'), bash('ls routes && head -3')],
    stillAsk: [bash('ls routes | head -5'), bash('ls routes/x | head -3'), bash('ls routes | head -3 | rm -rf x'), bash('ls')],
  },
  'npm test && git status (a list)': {
    action: bash('npm test && git status'),
    summary: 'always: allows exactly `npm test` and `git status` for this session (each of its 2 parts, no other arguments)',
    isRemembered: true,
    covered: [bash('npm test && git status'), bash('git status; npm test')],
    stillAsk: [bash('npm test -- --watch'), bash('git status && git push'), bash('npm test && rm -rf /')],
  },
  'cd build && rm -rf * (one part not literal)': {
    action: bash('cd build && rm -rf *'),
    summary: /^always: cannot be remembered \(`rm -rf …` is not literal/u,
    isRemembered: false,
    covered: [],
    stillAsk: [bash('cd build && rm -rf *'), bash('cd build')],
  },
  'write src/[id].ts (a path with glob characters)': {
    action: write('src/[id].ts'),
    summary: 'always: allows changing exactly `src/[id].ts` for this session',
    isRemembered: true,
    covered: [write('src/[id].ts')],
    stillAsk: [write('src/i.ts'), write('src/d.ts'), write('lib/src/[id].ts')],
  },
  'write a.ts (a bare name)': {
    action: write('a.ts'),
    summary: 'always: allows changing exactly `a.ts` for this session',
    isRemembered: true,
    covered: [write('a.ts')],
    stillAsk: [write('src/a.ts'), write('a.tsx'), write('b.ts')],
  },
  'write docs/** (stars in a file name)': {
    action: write('docs/**'),
    summary: 'always: allows changing exactly `docs/**` for this session',
    isRemembered: true,
    covered: [write('docs/**')],
    stillAsk: [write('docs/readme.md'), write('docs/a/b.md')],
  },
}; // prettier-ignore

let cases = 0;
afterAll(() => console.log(`always grants suite: ${cases} cases`));

function setup() {
  const asked: ApprovalRequest[] = [];
  let answer: 'always' | 'yes' = 'always';
  const grants = new SessionGrants();
  const authorize = createAuthorizer({
    redact: (text) => text,
    mode: 'ask',
    rules: parsePermissionRules({ allow: [], ask: [], deny: [] }),
    grants,
    workspaceRoot: '/work/space',
    interaction: {
      approve: async (request) => {
        asked.push(request);
        return answer;
      },
      ask: async () => '',
    },
    onApproval: () => undefined,
  });
  const run = (action: ToolAction) => authorize({ tool: action.tool, toolCallId: 'call', action });
  return { asked, grants, run, answerYes: () => (answer = 'yes') };
}

describe('"always" grants exactly what was shown', () => {
  for (const [name, spec] of Object.entries(CASES)) {
    it(name, async () => {
      cases += 1;
      const { asked, grants, run, answerYes } = setup();
      expect(await run(spec.action)).toMatchObject({ allowed: true });
      const [prompt] = asked;
      if (typeof spec.summary === 'string') expect(prompt?.always).toBe(spec.summary);
      else expect(prompt?.always).toMatch(spec.summary);
      expect(grants.list().length > 0).toBe(spec.isRemembered);
      answerYes();
      for (const action of spec.covered) {
        const before = asked.length;
        expect(await run(action)).toMatchObject({ allowed: true });
        expect({ action, asked: asked.length - before }).toEqual({ action, asked: 0 });
      }
      for (const action of spec.stillAsk) {
        const before = asked.length;
        await run(action);
        expect({ action, asked: asked.length - before }).toEqual({ action, asked: 1 });
      }
    });
  }

  it('control: a prefix rule written by the user does cover the neighbours', async () => {
    cases += 1;
    const grants = new SessionGrants();
    let asks = 0;
    const authorize = createAuthorizer({
      redact: (text) => text,
      mode: 'ask',
      rules: parsePermissionRules({ allow: ['Bash(rm -rf build:*)'], ask: [], deny: [] }),
      grants,
      workspaceRoot: '/work/space',
      interaction: {
        approve: async () => {
          asks += 1;
          return 'yes';
        },
        ask: async () => '',
      },
      onApproval: () => undefined,
    });
    const result = await authorize({ tool: 'bash', toolCallId: 'c', action: bash('rm -rf build other') });
    expect(result).toMatchObject({ allowed: true, rule: 'Bash(rm -rf build:*)' });
    expect(asks).toBe(0);
  });

  it('/permissions lists the grants as exact texts', async () => {
    cases += 1;
    const { grants, run } = setup();
    await run(bash('rm -rf build #:*'));
    await run(bash('ls routes | head -3'));
    expect(grants.list()).toEqual(['Bash(rm -rf build)', 'Bash(ls routes)', 'Bash(head -3)']);
  });
}); // prettier-ignore
