import { afterAll, describe, expect, it } from 'vitest';
import type { Language } from '../../../src/audit/hints/detect-languages.js';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { RULE_CATEGORIES } from '../../../src/audit/hints/rule-categories.js';

// The file name an example is indexed as, by language, unless the example names its own.
const EXAMPLE_PATHS: Record<Language, string> = {
  js: 'src/example.js',
  python: 'app/example.py',
  java: 'src/main/java/Example.java',
  go: 'cmd/example.go',
  php: 'public/example.php',
  ruby: 'app/example.rb',
  csharp: 'src/Example.cs',
  perl: 'lib/example.pl',
  shell: 'scripts/example.sh',
  template: 'views/example.html',
  workflow: '.github/workflows/example.yml',
};

const counts = new Map<string, { flagged: number; safe: number }>();

function count(category: string, language: string, kind: 'flagged' | 'safe'): void {
  const key = `${category}\t${language}`;
  const entry = counts.get(key) ?? { flagged: 0, safe: 0 };
  entry[kind]++;
  counts.set(key, entry);
}

describe('every rule file runs its own examples', () => {
  for (const category of RULE_CATEGORIES) {
    describe(category.category, () => {
      const raised = new Set<string>();
      for (const example of category.examples) {
        const path = example.path ?? EXAMPLE_PATHS[example.language];
        example.flagged.forEach((text, index) => {
          it(`${example.language} flagged #${index + 1}`, () => {
            const hints = indexFile({ path, text }).filter((h) => h.category === category.category);
            for (const hint of hints) raised.add(hint.ruleId);
            count(category.category, example.language, 'flagged');
            expect(hints.length, text).toBeGreaterThan(0);
          });
        });
        example.safe.forEach((text, index) => {
          it(`${example.language} safe #${index + 1}`, () => {
            const hints = indexFile({ path, text }).filter((h) => h.category === category.category);
            count(category.category, example.language, 'safe');
            expect(
              hints.map((h) => `${h.ruleId}:${h.line}`),
              text,
            ).toEqual([]);
          });
        });
      }
      it('has a flagged and a safe example, and every rule is raised by one', () => {
        expect(category.examples.some((e) => e.flagged.length > 0)).toBe(true);
        expect(category.examples.some((e) => e.safe.length > 0)).toBe(true);
        expect(category.rules.map((r) => r.id).filter((id) => !raised.has(id))).toEqual([]);
      });
    });
  }
});

afterAll(() => {
  const rows = [...counts].sort(([a], [b]) => a.localeCompare(b));
  const lines = rows.map(([key, c]) => {
    const [category, language] = key.split('\t');
    return `${(category ?? '').padEnd(24)} ${(language ?? '').padEnd(9)} ${String(c.flagged).padStart(3)} flagged ${String(c.safe).padStart(3)} safe`;
  });
  const total = rows.reduce((sum, [, c]) => sum + c.flagged + c.safe, 0);
  console.log(`rule examples run: ${total}\n${lines.join('\n')}`);
});
