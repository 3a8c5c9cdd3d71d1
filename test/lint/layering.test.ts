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

const LAYERING_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

/** The layering errors for the fixture linted as if it lived at `filePath`, as `line: message`. */
async function layeringErrors(text: string, filePath: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(PROJECT_ROOT, filePath) });
  return (result?.messages ?? []).filter((message) => LAYERING_RULES.has(message.ruleId ?? ''));
}

/** The top folder each line of the wrong-imports fixture imports from. */
const wrongImports = fixture('wrong-imports.ts');
const folderOfLine = new Map(
  wrongImports
    .split('\n')
    .map((line, index) => [index + 1, /from '\.\.\/\.\.\/([a-z]+)\//u.exec(line)?.[1]] as const)
    .filter((entry): entry is readonly [number, string] => entry[1] !== undefined),
);

describe('the layering lint rules', () => {
  // The layer a file sits in, and the folders it may not import (ARCHITECTURE.md "Shape").
  const cases: [string, string[]][] = [
    ['src/shared/fixture/fixture.ts', ['config', 'safety', 'providers', 'audit', 'agent', 'cli']],
    ['src/config/fixture/fixture.ts', ['safety', 'providers', 'audit', 'agent', 'cli']],
    ['src/safety/redact/fixture.ts', ['audit', 'agent', 'cli']],
    ['src/providers/fixture/fixture.ts', ['audit', 'agent', 'cli']],
    ['src/audit/fixture/fixture.ts', ['cli']],
    ['src/agent/fixture/fixture.ts', ['cli']],
    ['src/cli/fixture/fixture.ts', []],
  ];

  it('the fixture imports from every top folder, one per line', () => {
    expect([...folderOfLine.values()].sort()).toEqual(
      ['agent', 'audit', 'cli', 'config', 'providers', 'safety', 'shared'].sort(),
    );
  });

  it.each(cases)('in %s, exactly the imports of %j are errors', async (filePath, refused) => {
    const errors = await layeringErrors(wrongImports, filePath);
    expect(errors.map((error) => folderOfLine.get(error.line)).sort()).toEqual([...refused].sort());
    for (const error of errors) expect(error.message).toContain('ARCHITECTURE.md');
  });

  it('control: imports that point down pass in every layer below cli', async () => {
    for (const [filePath] of cases)
      expect(await layeringErrors(fixture('right-imports.ts'), filePath)).toEqual([]);
  });

  it('re-exports, a path that climbs back, and lazy imports (literal or not) are errors too', async () => {
    const errors = await layeringErrors(
      fixture('evasive-imports.ts'),
      'src/safety/redact/fixture.ts',
    );
    expect(errors.map((error) => error.line).sort()).toEqual([2, 3, 4, 5]);
  });
});
