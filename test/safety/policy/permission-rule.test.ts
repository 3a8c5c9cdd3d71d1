import { describe, expect, it } from 'vitest';
import {
  parsePermissionRule,
  parsePermissionRules,
} from '../../../src/safety/policy/permission-rule.js';
import { ConfigError } from '../../../src/shared/errors.js';

describe('parsePermissionRule', () => {
  it('reads exact and prefix Bash rules into words', () => {
    expect(parsePermissionRule('Bash(npm test)')).toMatchObject({
      kind: 'bash',
      words: ['npm', 'test'],
      isPrefix: false,
    });
    expect(parsePermissionRule('Bash(git status:*)')).toMatchObject({
      words: ['git', 'status'],
      isPrefix: true,
    });
    expect(parsePermissionRule('Bash(git commit -m "a b":*)')).toMatchObject({
      words: ['git', 'commit', '-m', 'a b'],
    });
    expect(parsePermissionRule('Bash(CI=1 npm test)')).toMatchObject({
      words: ['CI=1', 'npm', 'test'],
    });
    expect(parsePermissionRule('Bash')).toMatchObject({ kind: 'bash', words: null });
  });

  it('reads file and WebFetch rules', () => {
    expect(parsePermissionRule('Write(src/**)')).toMatchObject({
      kind: 'write',
      pattern: 'src/**',
    });
    expect(parsePermissionRule('Edit(./src/**)')).toMatchObject({
      kind: 'edit',
      pattern: 'src/**',
    });
    expect(parsePermissionRule('Read(secrets/**)')).toMatchObject({
      kind: 'read',
      pattern: 'secrets/**',
    });
    expect(parsePermissionRule('WebFetch(domain:docs.python.org)')).toMatchObject({
      domain: 'docs.python.org',
    });
    expect(parsePermissionRule('WebFetch(domain:*.GitHub.com.)')).toMatchObject({
      domain: '*.github.com',
    });
    expect(parsePermissionRule('WebFetch')).toMatchObject({ kind: 'webfetch', domain: null });
  });

  const MALFORMED = [
    '',
    'bash(npm test)',
    'Shell(npm test)',
    'Bash(npm test',
    'Bash()',
    'Bash(  )',
    'Bash(git status; rm:*)',
    'Bash(git status && rm)',
    'Bash(npm $X)',
    'Bash(npm run *)',
    'Bash(ls > out)',
    'Bash(echo $(rm))',
    'Bash(:*)',
    'Bash(FOO=1)',
    'Write(!src/**)',
    'Write(../outside/**)',
    'Read()',
    'WebFetch(docs.python.org)',
    'WebFetch(domain:)',
    'WebFetch(domain:a b)',
    'WebFetch(domain:https://x.org)',
    'WebFetch(domain:x.*.org)',
  ];
  for (const text of MALFORMED) {
    it(`refuses ${JSON.stringify(text)} with a ConfigError naming it`, () => {
      let error: unknown;
      try {
        parsePermissionRule(text);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain(JSON.stringify(text));
    });
  }

  it('parses a whole config section and stops at the first bad rule', () => {
    const parsed = parsePermissionRules({
      allow: ['Bash(npm test)'],
      ask: ['WebFetch'],
      deny: ['Read(.env)'],
    });
    expect(parsed.deny[0]?.text).toBe('Read(.env)');
    expect(() => parsePermissionRules({ allow: [], ask: [], deny: ['Bash(rm'] })).toThrow(
      /"Bash\(rm"/u,
    );
  });
});
