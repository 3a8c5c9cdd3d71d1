import { describe, expect, it } from 'vitest';
import { HINT_RULES } from '../../../src/audit/hints/hint-rules.js';
import { HINT_WEIGHTS, hintWeight } from '../../../src/audit/hints/hint-weight.js';
import { LINE_RULES } from '../../../src/audit/hints/line-rules.js';
import { SEVERITIES } from '../../../src/audit/types.js';

const FAMILIES = [
  'cmd-exec',
  'dynamic-code',
  'sql',
  'deser',
  'path-traversal',
  'ssrf',
  'xss',
  'crypto',
  'tls',
  'cors',
  'jwt',
  'prompt-injection',
  'ci',
  'secret',
  'redirect',
  'nosql',
  'xml',
  'template',
  'ldap',
  'xpath',
  'cookie',
  'session',
  'access',
];

describe('HINT_RULES', () => {
  it('has unique, kebab-case ids prefixed by a known family', () => {
    const ids = HINT_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[a-z]+(?:-[a-z]+)*\/[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(FAMILIES).toContain(id.split('/')[0]);
    }
  });

  it('describes every rule with a category, a severity, a sentence and its languages', () => {
    for (const rule of HINT_RULES) {
      expect(SEVERITIES).toContain(rule.severity);
      expect(rule.category.length).toBeGreaterThan(0);
      expect(rule.description.length).toBeGreaterThan(20);
      expect(rule.languages.length).toBeGreaterThan(0);
    }
  });

  it('covers every rule family the spec lists', () => {
    const categories = new Set(HINT_RULES.map((r) => r.category));
    expect([...categories].sort()).toEqual([
      'access-control',
      'ci-workflow',
      'command-execution',
      'cors',
      'dynamic-code',
      'hardcoded-credential',
      'insecure-cookie',
      'jwt',
      'ldap-injection',
      'nosql-injection',
      'open-redirect',
      'path-traversal',
      'prompt-injection',
      'secret-file',
      'sql-injection',
      'ssrf',
      'template-injection',
      'tls-verification',
      'trust-boundary',
      'unsafe-deserialization',
      'weak-crypto',
      'xpath-injection',
      'xss',
      'xxe',
    ]);
  });

  it('includes the orchestrator-built secret rules', () => {
    expect(HINT_RULES).toContainEqual(
      expect.objectContaining({
        id: 'secret/hardcoded-credential',
        category: 'hardcoded-credential',
        severity: 'high',
      }),
    );
    expect(HINT_RULES).toContainEqual(
      expect.objectContaining({
        id: 'secret/committed-secret-file',
        category: 'secret-file',
        severity: 'high',
      }),
    );
  });

  it('builds matchers that are safe to reuse: no global or sticky patterns, lowercase keywords', () => {
    for (const rule of LINE_RULES) {
      for (const matcher of rule.matchers) {
        const escalate = 'escalate' in matcher ? matcher.escalate : undefined;
        for (const pattern of [
          matcher.pattern,
          matcher.unless,
          matcher.near?.requires,
          matcher.near?.forbids,
          escalate?.onLine,
          escalate?.near?.pattern,
        ]) {
          if (pattern !== undefined) expect(pattern.flags, rule.id).not.toMatch(/[gy]/);
        }
        expect(matcher.keywords.length, rule.id).toBeGreaterThan(0);
        for (const keyword of matcher.keywords)
          expect(keyword, rule.id).toBe(keyword.toLowerCase());
      }
    }
  });
});

describe('hintWeight', () => {
  it.each([
    ['critical', 8],
    ['high', 4],
    ['medium', 2],
    ['low', 1],
    ['info', 0],
  ] as const)('weighs %s as %i', (severity, weight) => {
    expect(hintWeight(severity)).toBe(weight);
  });

  it('orders severities strictly', () => {
    const weights = SEVERITIES.map((s) => HINT_WEIGHTS[s]);
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
    expect(new Set(weights).size).toBe(weights.length);
  });
});
