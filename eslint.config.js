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

/** One no-restricted-imports block per layer (test/lint/layering.test.ts proves each fails on a wrong import). */
export const layeringRules = LAYERS.map(({ folders, above }) => ({
  files: folders.map((folder) => `src/${folder}/**/*.ts`),
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(\\.\\.?/)+(${above.join('|')})/`,
            message: `${folders.join(' and ')} sit below ${above.join(', ')}: move the shared type or helper down instead (ARCHITECTURE.md "Shape").`,
          },
        ],
      },
    ],
  },
}));

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
