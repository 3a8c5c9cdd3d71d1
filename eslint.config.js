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
 * One block per layer (test/lint/layering.test.ts proves each fails on a wrong import): static imports
 * and re-exports through no-restricted-imports, lazy `import()` through no-restricted-syntax, which
 * no-restricted-imports does not see.
 */
export const layeringRules = LAYERS.map(({ folders, above }) => {
  const message = `${folders.join(' and ')} sit below ${above.join(', ')}: move the shared type or helper down instead (ARCHITECTURE.md "Shape").`;
  const upward = `^(\\.\\.?/)+(${above.join('|')})/`;
  const unnormalised = 'write the relative path without climbing back (ARCHITECTURE.md "Shape").';
  return {
    files: folders.map((folder) => `src/${folder}/**/*.ts`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: upward, message },
            { regex: UNNORMALISED_PATH, message: unnormalised },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: importOf(upward), message },
        { selector: importOf(UNNORMALISED_PATH), message: unnormalised },
        {
          selector: 'ImportExpression > :not(Literal)',
          message: 'a lazy import names its module literally, so the layering can be checked.',
        },
      ],
    },
  };
});

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
