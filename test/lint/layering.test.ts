import { existsSync, readFileSync } from 'node:fs';
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
    // cli/ sits on top, but reaches the agent only through agent/index.ts.
    ['src/cli/fixture/fixture.ts', ['agent']],
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

  it('control: imports that point down pass in every layer', async () => {
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

/** The part of agent/ each line of the agent fixture imports (`loop/`, `events.ts`). */
const agentImports = fixture('agent-layer-imports.ts');
const partOfLine = new Map(
  agentImports
    .split('\n')
    .map((line, index) => [index + 1, /from '\.\.\/([a-z-]+)(\/|\.js)/u.exec(line)] as const)
    .filter((entry): entry is readonly [number, RegExpExecArray] => entry[1] !== null)
    .map(([line, match]) => [line, `${match[1]}${match[2] === '/' ? '/' : '.ts'}`] as const),
);

describe('the layering inside agent/', () => {
  // Top down (ARCHITECTURE.md "Agent mode"): each part may not import the parts of the layers above it.
  const layers = [
    ['index.ts', 'open-agent-session.ts'],
    ['replay/'],
    ['agent-session.ts'],
    ['loop/'],
    ['mcp/', 'hooks/', 'checkpoint/', 'session/', 'compact/', 'prompt/'],
    ['tools/', 'authorize/'],
    ['shell/'],
    ['events.ts'],
  ];
  const cases = layers.flatMap((layer, index) =>
    layer.map((part) => [part, layers.slice(0, index).flat()] as [string, string[]]),
  );

  it('the fixture imports every part, one per line', () => {
    expect([...partOfLine.values()].sort()).toEqual(layers.flat().sort());
  });

  it.each(cases)('in %s, exactly the imports of %j are errors', async (part, refused) => {
    const isTopFile = part.endsWith('.ts');
    const filePath = isTopFile ? `src/agent/${part}` : `src/agent/${part}fixture.ts`;
    const text = isTopFile ? agentImports.replaceAll("from '../", "from './") : agentImports;
    const errors = await layeringErrors(text, filePath);
    expect(errors.map((error) => partOfLine.get(error.line)).sort()).toEqual([...refused].sort());
    for (const error of errors) expect(error.message).toContain('inside agent/');
  });

  it('re-adding either wrong-way import of old fails lint in the real files', async () => {
    const planted: [string, string][] = [
      [
        'src/agent/loop/run-agent-loop.ts',
        "import { ReplayDiverged } from '../replay/replay-model-client.js';",
      ],
      ['src/agent/session/record-answers.ts', "import { x } from '../loop/run-agent-loop.js';"],
      ['src/agent/tools/read/planted.ts', "export { y } from '../../loop/agent-state.js';"],
      ['src/agent/session/planted.ts', "const lazy = () => import('../replay/load-recording.js');"],
    ];
    for (const [filePath, line] of planted) {
      const real = path.join(PROJECT_ROOT, filePath);
      const text = `${line}\n${existsSync(real) ? readFileSync(real, 'utf8') : ''}`;
      const errors = await layeringErrors(text, filePath);
      expect(errors.map((error) => error.line)).toEqual([1]);
    }
  });

  it('control: the real files of agent/ pass', async () => {
    for (const filePath of [
      'src/agent/loop/run-agent-loop.ts',
      'src/agent/session/record-answers.ts',
    ]) {
      const text = readFileSync(path.join(PROJECT_ROOT, filePath), 'utf8');
      expect(await layeringErrors(text, filePath)).toEqual([]);
    }
  });
});
