import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/run-oy.js';

// The real rules, from the project's own config: the test fails if they are loosened there.
const CONFIG_FILE = path.join(PROJECT_ROOT, 'eslint.config.js');
const { layeringRules } = (await import(CONFIG_FILE)) as { layeringRules: Linter.Config[] };

const fixture = (name: string) =>
  readFileSync(path.join(PROJECT_ROOT, 'test', 'fixtures', 'lint', name), 'utf8');

const eslint = new ESLint({
  cwd: PROJECT_ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
    ...layeringRules,
  ],
});

/** The messages of `no-restricted-imports` for the fixture linted as if it lived at `filePath`. */
async function restrictedImports(text: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(PROJECT_ROOT, filePath) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('the layering lint rules', () => {
  const cases: [string, string, number][] = [
    ['src/safety/redact/fixture.ts', 'audit and cli above safety', 2],
    ['src/providers/fixture/fixture.ts', 'audit and cli above providers', 2],
    ['src/config/fixture/fixture.ts', 'audit and cli above config', 2],
    ['src/shared/fixture/fixture.ts', 'audit and cli above shared', 2],
    ['src/agent/fixture/fixture.ts', 'cli above agent (audit is a peer)', 1],
    ['src/audit/fixture/fixture.ts', 'cli above audit (audit itself is not above)', 1],
    ['src/cli/fixture/fixture.ts', 'nothing above cli', 0],
  ];
  it.each(cases)('a wrong import in %s is an error: %s', async (filePath, _why, errors) => {
    const messages = await restrictedImports(fixture('wrong-imports.ts'), filePath);
    expect(messages).toHaveLength(errors);
    for (const message of messages) expect(message).toContain('ARCHITECTURE.md');
  });

  it('control: imports that point down pass in every layer below cli', async () => {
    for (const [filePath] of cases)
      expect(await restrictedImports(fixture('right-imports.ts'), filePath)).toEqual([]);
  });
});
