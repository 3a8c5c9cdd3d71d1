import { afterAll, describe, expect, it } from 'vitest';
import { decide, type DecisionContext } from '../../../src/safety/policy/decide.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import { splitCommand } from '../../../src/safety/policy/split-command.js';

/** Compound commands, substitutions and quoting tricks against prefix and exact allow rules: never allowed unless every part is. */

const ALLOW = ['Bash(git status:*)', 'Bash(npm test)', 'Bash(ls:*)', 'Bash(echo:*)'];
const context: DecisionContext = {
  mode: 'ask',
  rules: parsePermissionRules({ allow: ALLOW, ask: [], deny: [] }),
  sessionGrants: [],
  isInteractive: true,
};

// Every part is allowed by one of ALLOW, and the shell would run nothing else.
const ALLOWED: string[] = [
  'git status',
  'git status --short',
  'npm test',
  'git status && npm test',
  'git status; npm test',
  'git status || npm test',
  'git status | ls',
  'git status\nnpm test',
  'git status\n\nnpm test\n',
  '   git    status   ',
  'git status 2>&1',
  'npm test >/dev/null 2>&1',
  'git \\\nstatus',
  '"git" "status"',
  'g\'i\'t st"at"us',
  'echo $(git status)',
  'echo "$(npm test)"',
  'echo `git status`',
  '(git status)',
  '(git status; npm test) 2>/dev/null',
  '{ git status; npm test; }',
  'git status # ; rm -rf /',
  "echo 'a; rm -rf /'",
  'echo "x | rm -rf /"',
  'git status &',
  '! git status',
  'git status \\; rm -rf /', // one command: ";" is an argument of git status
  "git status ';' rm -rf /",
  'ls -la | ls',
  'echo hello <<< literal',
];

// At least one part is not allowed, or the command cannot be read with certainty.
const NOT_ALLOWED: string[] = [
  'npm test --watch',
  'npm testx',
  'git statusx',
  'git',
  'git status; rm -rf /',
  'git status && rm -rf /',
  'git status || rm -rf /',
  'git status | sh',
  'git status |& sh',
  'git status & rm -rf /',
  'git status\nrm -rf /',
  'git status\r\nrm -rf /',
  "'git status'; rm -rf /",
  "'git status; rm -rf /'",
  'git status $(rm -rf /)',
  'git status `rm -rf /`',
  'git status "$(rm -rf /)"',
  'echo $(rm -rf /)',
  'echo $(echo $(rm -rf /))',
  '(git status; rm -rf /)',
  '{ git status; rm -rf /; }',
  'git status > .bashrc',
  'git status >> ~/.bashrc',
  'npm test > out.txt',
  'git status &> f',
  'git status >| f',
  'git status < /etc/passwd',
  '(git status) > f',
  'git status$IFS;rm -rf /',
  'git${IFS}status',
  'git status;${IFS}rm',
  '$X status',
  'git status $HOME',
  'git status "$@"',
  "git status $'\\x3b' rm",
  'FOO=1 npm test',
  "PAGER='sh -c rm' git status",
  'LD_PRELOAD=/tmp/x.so npm test',
  'GIT_DIR=$(rm -rf /) git status',
  'git status\uff1brm -rf /', // fullwidth semicolon
  'git status\u037erm -rf /', // Greek question mark, looks like ";"
  'git status \uff06\uff06 rm -rf /', // fullwidth ampersands
  'git status\u0000; rm -rf /',
  'git status \u2018x\u2019',
  'git status\u00a0--short',
  'git\u2028status',
  'ls <<EOF\nrm -rf /\nEOF',
  'ls <(rm -rf /)',
  'ls >(rm -rf /)',
  'echo $((1+2))',
  '((x=1))',
  'if git status; then rm -rf /; fi',
  'for f in a; do rm $f; done',
  'f() { rm -rf /; }; f',
  'git status\\',
  "git status 'unclosed",
  'git status "unclosed',
  'echo `unclosed',
  '*',
  'ls; /bin/rm -rf /',
  '{rm,-rf,/}',
  '~/evil.sh',
  'git status ;; rm',
  'eval "git status"',
  "bash -c 'git status'",
  'sh -c "npm test"',
  'exec rm -rf /',
  'echo ok && npm test; rm -rf /',
  'npm test \\; rm',
  'x=1; git status',
  'git status )',
  '( git status',
  '',
  '   ',
  'echo `echo \\`rm -rf /\\``',
  'git status & & rm',
  'a=(1 2) git status',
];

let cases = 0;
afterAll(() => {
  console.log(`command parsing: ${cases} cases`);
});

describe('command parsing against allow rules', () => {
  for (const command of ALLOWED) {
    it(`allows ${JSON.stringify(command)}`, async () => {
      cases += 1;
      const result = await decide({ kind: 'bash', tool: 'bash', command }, context);
      expect(result.decision, result.reason).toBe('allow');
    });
  }
  for (const command of NOT_ALLOWED) {
    it(`does not allow ${JSON.stringify(command)}`, async () => {
      cases += 1;
      const result = await decide({ kind: 'bash', tool: 'bash', command }, context);
      expect(result.decision, result.reason).toBe('ask');
      const strict = await decide(
        { kind: 'bash', tool: 'bash', command },
        { ...context, isInteractive: false },
      );
      expect(strict.decision).toBe('deny');
      expect(strict.reason).toContain('To allow it');
    });
  }
});

describe('deny rules look through every part', () => {
  const denyContext: DecisionContext = {
    mode: 'auto',
    rules: parsePermissionRules({ allow: ['Bash(rm:*)'], ask: [], deny: ['Bash(rm:*)'] }),
    sessionGrants: parsePermissionRules({ allow: ['Bash(rm -rf /)'], ask: [], deny: [] }).allow,
    isInteractive: true,
  };
  const DENIED = [
    'rm -rf /',
    'git status; rm -rf /',
    '/bin/rm -rf /',
    'sudo rm -rf /',
    'env FOO=1 rm -rf /',
    'FOO=1 rm -rf /',
    'timeout 5 rm -rf /',
    'echo $(rm -rf /)',
    'ls | xargs rm',
    '(rm -rf /) 2>/dev/null',
    'rm -rf / ;; x',
  ];
  for (const command of DENIED) {
    it(`denies ${JSON.stringify(command)} even in auto mode with an allow rule and a grant`, async () => {
      cases += 1;
      const result = await decide({ kind: 'bash', tool: 'bash', command }, denyContext);
      expect(result.decision, result.reason).toBe('deny');
      expect(result.rule).toBe('Bash(rm:*)');
    });
  }
  it('asks (never allows) an unparseable command when a Bash deny rule exists, even in auto mode', async () => {
    cases += 1;
    const result = await decide({ kind: 'bash', tool: 'bash', command: 'r$X -rf /' }, denyContext);
    expect(result.decision).toBe('ask');
    expect(result.rule).toBe('uncertain-command');
  });
  it('lets auto mode run an unparseable command when no Bash deny or ask rule could match it', async () => {
    cases += 1;
    const result = await decide(
      { kind: 'bash', tool: 'bash', command: 'echo $HOME' },
      {
        ...denyContext,
        rules: parsePermissionRules({ allow: [], ask: [], deny: ['Read(secrets/**)'] }),
      },
    );
    expect(result.decision).toBe('allow');
  });
});

describe('splitCommand', () => {
  it('returns literal argv words, assignments and redirections', async () => {
    cases += 1;
    const split = await splitCommand(`FOO=1 git "status" --short >out 2>&1 && echo 'a b' | cat`);
    expect(split.kind).toBe('parsed');
    if (split.kind !== 'parsed') return;
    expect(split.commands.map((c) => c.argv)).toEqual([
      ['git', 'status', '--short'],
      ['echo', 'a b'],
      ['cat'],
    ]);
    expect(split.commands[0]?.assignments).toEqual(['FOO=1']);
    expect(split.commands[0]?.redirections).toEqual([
      { op: '>', target: 'out', isHarmless: false },
      { op: '2>&', target: '1', isHarmless: true },
    ]);
  });
  it('names the reason it is uncertain', async () => {
    cases += 1;
    const split = await splitCommand('git status\uff1b rm');
    expect(split).toMatchObject({ kind: 'uncertain', reason: expect.stringContaining('U+FF1B') });
    expect(await splitCommand('echo $HOME')).toMatchObject({
      reason: expect.stringContaining('variable'),
    });
    expect(await splitCommand('cat <<EOF\nx\nEOF')).toMatchObject({ reason: expect.stringContaining('here-document') }); // prettier-ignore
  });
  it('rejects what bash itself would not parse', async () => {
    cases += 1;
    expect((await splitCommand('git status & & rm')).kind).toBe('uncertain');
    expect((await splitCommand('git status |')).kind).toBe('uncertain');
  });
});
