import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layering (ARCHITECTURE.md "Shape"): cli -> audit | agent -> safety | providers -> config | shared.
 * Each folder may not import the folders above it; a relative import naming one is an error.
 */
const LAYERS = [
  { folders: ['shared'], above: ['config', 'safety', 'providers', 'audit', 'agent', 'cli'] },
  { folders: ['config'], above: ['safety', 'providers', 'audit', 'agent', 'cli'] },
  { folders: ['safety', 'providers'], above: ['audit', 'agent', 'cli'] },
  { folders: ['audit', 'agent'], above: ['cli'] },
];

// A relative path that climbs again after naming a folder (`../x/../../cli/`) could hide where it leads.
const UNNORMALISED_PATH = '^(\\.\\.?/)*[^./][^/]*/(.*/)?\\.\\.?/';

/** A selector for `import('<a path the regex matches>')`; esquery's regex literal cannot hold a `/`. */
const importOf = (regex) => `ImportExpression > Literal[value=/${regex.replaceAll('/', '\\x2F')}/]`;

/**
 * The layering inside agent/, top down (ARCHITECTURE.md "Agent mode"): the front door, then replay/
 * (it drives an AgentSession), the session, the loop, what the loop uses, the tools and the person who
 * approves them, the shell, and the events every part speaks. A folder is named `x/`, a file `x.ts`.
 */
const AGENT_LAYERS = [
  ['index.ts', 'open-agent-session.ts'],
  ['replay/'],
  ['agent-session.ts'],
  ['loop/'],
  ['mcp/', 'hooks/', 'checkpoint/', 'session/', 'compact/', 'prompt/'],
  ['tools/', 'authorize/'],
  ['shell/'],
  ['events.ts'],
];

/**
 * An import of one of `names` (agent/'s folders and top files) written inside agent/: from a top file
 * `./x/` or `./x.js`, from a file in a folder `../x/` or `../../x.js` (however deep).
 */
const importOfAny = (names, isFromTopFile) => {
  const folders = names.filter((name) => name.endsWith('/')).map((name) => name.slice(0, -1));
  const files = names.filter((name) => name.endsWith('.ts')).map((name) => name.slice(0, -3));
  const alternatives = [
    ...(folders.length > 0 ? [`(${folders.join('|')})/`] : []),
    ...(files.length > 0 ? [`(${files.join('|')})\\.js$`] : []),
  ];
  return `${isFromTopFile ? '^\\./' : '^(\\.\\./)+'}(${alternatives.join('|')})`;
};

/** The restrictions of one set of files: each `{ regex, message }` refused as a static, re-exported or lazy import. */
const restrict = (files, restrictions) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: restrictions }],
    'no-restricted-syntax': [
      'error',
      ...restrictions.map(({ regex, message }) => ({ selector: importOf(regex), message })),
      {
        selector: 'ImportExpression > :not(Literal)',
        message: 'a lazy import names its module literally, so the layering can be checked.',
      },
    ],
  },
});

const UNNORMALISED = {
  regex: UNNORMALISED_PATH,
  message: 'write the relative path without climbing back (ARCHITECTURE.md "Shape").',
};

/** Between areas: a folder may not import the folders above it. */
const areaRestrictions = ({ folders, above }) => [
  {
    regex: `^(\\.\\.?/)+(${above.join('|')})/`,
    message: `${folders.join(' and ')} sit below ${above.join(', ')}: move the shared type or helper down instead (ARCHITECTURE.md "Shape").`,
  },
  UNNORMALISED,
];

/** Inside agent/: a layer may not import the layers above it (with the area's own restrictions kept). */
const agentArea = LAYERS.find(({ folders }) => folders.includes('agent'));
const agentLayerRules = AGENT_LAYERS.flatMap((layer, index) => {
  const above = AGENT_LAYERS.slice(0, index).flat();
  const message = `inside agent/, ${layer.join(' and ')} sit below ${above.join(', ')}: move the shared type or helper down instead (ARCHITECTURE.md "Agent mode").`;
  return layer.map((name) => {
    const isTopFile = name.endsWith('.ts');
    const inner = above.length === 0 ? [] : [{ regex: importOfAny(above, isTopFile), message }];
    const files = [isTopFile ? `src/agent/${name}` : `src/agent/${name}**/*.ts`];
    return restrict(files, [...areaRestrictions(agentArea), ...inner]);
  });
});

/** cli/ reaches the agent only through its front door, agent/index.ts (and defaults.ts, which imports nothing). */
const cliRule = restrict(
  ['src/cli/**/*.ts'],
  [
    {
      regex: '^(\\.\\./)+agent/(?!(index|defaults)\\.js$)',
      message:
        'cli/ imports the agent only through agent/index.ts: export what it needs there (ARCHITECTURE.md "Agent mode").',
    },
    UNNORMALISED,
  ],
);

/**
 * One block per layer (test/lint/layering.test.ts proves each fails on a wrong import): static imports
 * and re-exports through no-restricted-imports, lazy `import()` through no-restricted-syntax, which
 * no-restricted-imports does not see. A later block replaces an earlier one's options for the same
 * rule, so each agent/ layer's block repeats the area's restrictions.
 */
export const layeringRules = [
  ...LAYERS.map((layer) =>
    restrict(
      layer.folders.map((folder) => `src/${folder}/**/*.ts`),
      areaRestrictions(layer),
    ),
  ),
  ...agentLayerRules,
  cliRule,
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test/fixtures/', 'snapshots/', 'bench-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  ...layeringRules,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        performance: 'readonly',
      },
    },
  },
);
