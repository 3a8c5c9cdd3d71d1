import { describe, expect, it } from 'vitest';
import { decide, type DecisionContext } from '../../../src/safety/policy/decide.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import type { PermissionRules } from '../../../src/config/config-schema.js';

function context(
  mode: DecisionContext['mode'],
  rules: Partial<PermissionRules> = {},
  isInteractive = true,
) {
  return {
    mode,
    rules: parsePermissionRules({ allow: [], ask: [], deny: [], ...rules }),
    sessionGrants: [],
    isInteractive,
    workspaceRoot: '/ws',
  };
}

describe('decide: built-in rules', () => {
  it('asks before reading a secret-bearing file, in every mode and despite an allow rule', async () => {
    for (const mode of ['plan', 'ask', 'edit', 'auto'] as const) {
      const result = await decide(
        { kind: 'read', tool: 'read', path: 'config/.env' },
        context(mode, { allow: ['Read(**)'] }),
      );
      expect(result).toMatchObject({ decision: 'ask', rule: 'secret-bearing-file' });
    }
    const strict = await decide(
      { kind: 'read', tool: 'read', path: 'id_rsa' },
      context('auto', {}, false),
    );
    expect(strict).toMatchObject({ decision: 'deny', rule: 'secret-bearing-file' });
    expect(
      await decide({ kind: 'read', tool: 'read', path: '.env.example' }, context('ask')),
    ).toMatchObject({
      decision: 'allow',
    });
  });

  it('never writes under .git/ or .oy/, whatever the mode or rules', async () => {
    const allowAll = context('auto', { allow: ['Write(**)', 'Edit(**)'] });
    for (const path of [
      '.git/hooks/pre-commit',
      'sub/.GIT/config',
      '.oy/config.json',
      '/ws/.oy/x',
      'a/../.git/x',
    ]) {
      const result = await decide({ kind: 'write', tool: 'write', path }, allowAll);
      expect(result, path).toMatchObject({ decision: 'deny', rule: 'protected:.git/.oy' });
    }
  });

  it('denies the ask tool when nobody can answer', async () => {
    expect(await decide({ kind: 'ask', tool: 'ask' }, context('ask', {}, false))).toMatchObject({
      decision: 'deny',
    });
  });
});

describe('decide: rule matching', () => {
  it('matches deny path rules case-insensitively and allow rules exactly', async () => {
    const deny = context('auto', { deny: ['Read(secrets/**)'] });
    expect(await decide({ kind: 'read', tool: 'read', path: 'SECRETS/a.txt' }, deny)).toMatchObject(
      {
        decision: 'deny',
      },
    );
    expect(
      await decide({ kind: 'read', tool: 'read', path: './secrets/x/../a.txt' }, deny),
    ).toMatchObject({
      decision: 'deny',
    });
    expect(
      await decide({ kind: 'read', tool: 'read', path: '/ws/secrets/a.txt' }, deny),
    ).toMatchObject({
      decision: 'deny',
    });
    expect(
      await decide({ kind: 'read', tool: 'read', path: 'secrets\\a.txt' }, deny),
    ).toMatchObject({
      decision: 'deny',
    });
    const allow = context('ask', { allow: ['Write(src/**)'] });
    expect(await decide({ kind: 'write', tool: 'write', path: 'src/a.ts' }, allow)).toMatchObject({
      decision: 'allow',
    });
    expect(await decide({ kind: 'write', tool: 'write', path: 'SRC/a.ts' }, allow)).toMatchObject({
      decision: 'ask',
    });
    expect(
      await decide({ kind: 'write', tool: 'write', path: 'src/../lib/a.ts' }, allow),
    ).toMatchObject({
      decision: 'ask',
    });
  });

  it('lets a Write deny rule stop edit and replace too', async () => {
    const deny = context('auto', { deny: ['Write(src/**)'] });
    expect(await decide({ kind: 'write', tool: 'edit', path: 'src/a.ts' }, deny)).toMatchObject({
      decision: 'deny',
    });
    const replace = {
      kind: 'write' as const,
      tool: 'replace' as const,
      path: '.',
      files: ['lib/a.ts', 'src/b.ts'],
    };
    expect(await decide(replace, deny)).toMatchObject({ decision: 'deny', rule: 'Write(src/**)' });
  });

  it('allows a replace only when every changed file is allowed, and never without the file list', async () => {
    const allow = context('ask', { allow: ['Edit(src/**)'] });
    expect(
      await decide(
        { kind: 'write', tool: 'replace', path: '.', files: ['src/a.ts', 'lib/b.ts'] },
        allow,
      ),
    ).toMatchObject({ decision: 'ask' });
    expect(
      await decide({ kind: 'write', tool: 'replace', path: 'src', files: [] }, allow),
    ).toMatchObject({
      decision: 'ask',
    });
    expect(
      await decide({ kind: 'write', tool: 'replace', path: '.', files: ['src/a.ts'] }, allow),
    ).toMatchObject({
      decision: 'allow',
    });
  });

  it('matches WebFetch domains exactly or as subdomains', async () => {
    const allow = context('ask', {
      allow: ['WebFetch(domain:*.github.com)', 'WebFetch(domain:docs.python.org)'],
    });
    const fetch = (url: string) => decide({ kind: 'webfetch', tool: 'webfetch', url }, allow);
    expect(await fetch('https://api.github.com/x')).toMatchObject({ decision: 'allow' });
    expect(await fetch('https://a.b.GITHUB.com./x')).toMatchObject({ decision: 'allow' });
    expect(await fetch('https://github.com/x')).toMatchObject({ decision: 'ask' });
    expect(await fetch('https://evilgithub.com/x')).toMatchObject({ decision: 'ask' });
    expect(await fetch('https://github.com.evil.org/x')).toMatchObject({ decision: 'ask' });
    expect(await fetch('https://docs.python.org.evil.org/')).toMatchObject({ decision: 'ask' });
    expect(await fetch('not a url')).toMatchObject({ decision: 'ask' });
  });

  it('tells a non-interactive run how to allow what it refused', async () => {
    const result = await decide(
      { kind: 'bash', tool: 'bash', command: 'npm test' },
      context('edit', {}, false),
    );
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('mode:edit');
    expect(result.reason).toContain('--mode auto');
    expect(result.reason).toContain('Bash(npm test)');
    const write = await decide(
      { kind: 'write', tool: 'write', path: 'a.ts' },
      context('ask', {}, false),
    );
    expect(write.reason).toContain('--mode edit');
    expect(write.reason).toContain('Write(a.ts)');
  });
});
