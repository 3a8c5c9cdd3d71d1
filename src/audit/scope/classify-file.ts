/**
 * What a file is for, read from its path alone: `source` ships (application code, configuration,
 * CI, infrastructure, scripts); the others support it and carry less risk of their own.
 */
export type FileKind = 'source' | 'test' | 'fixture' | 'docs' | 'translation' | 'example';

export const FILE_KINDS: readonly FileKind[] = [
  'source',
  'test',
  'fixture',
  'docs',
  'translation',
  'example',
];

/** Words for people: `source` is what the reports call application code. */
export const FILE_KIND_LABELS: Readonly<Record<FileKind, string>> = {
  source: 'application code',
  test: 'tests',
  fixture: 'fixtures and test data',
  docs: 'documentation',
  translation: 'translations',
  example: 'examples',
};

interface KindRule {
  kind: Exclude<FileKind, 'source'>;
  /** Directory names (lowercase) anywhere in the path. */
  directories: readonly string[];
  /** Patterns tested against the base name as written (most carry the `i` flag). */
  names: readonly RegExp[];
  /** When set, a directory match counts only for files whose name matches: data, not code. */
  directoryFilesOnly?: RegExp;
}

// Data formats a translation catalogue is written in; code under `i18n/` (its set-up) still ships.
const TRANSLATION_DATA = /\.(json|ya?ml|po|pot|properties|xlf|xliff|ftl|arb|resx|strings|toml)$/i;

/**
 * The conventions, most specific first: the first rule whose directory or name matches wins, so
 * `test/fixtures/app.js` is a fixture and `src/app.test.ts` a test. Everything else is `source`.
 */
export const FILE_KIND_RULES: readonly KindRule[] = [
  {
    kind: 'fixture',
    directories: [
      'fixtures',
      'fixture',
      '__fixtures__',
      'testdata',
      'test-data',
      'test_data',
      '__mocks__',
      '__snapshots__',
    ],
    names: [/\.snap$/i],
  },
  {
    kind: 'test',
    directories: ['test', 'tests', '__tests__', '__test__', 'spec', 'specs', 'e2e', 'cypress'],
    names: [
      /[._-](test|tests|spec)\.[a-z0-9]+$/i, // app.test.ts, user.spec.js, handler_test.go
      /^test_.+\.py$/i, // test_models.py
      /^(tests|conftest)\.py$/i,
      /[a-z0-9]Tests?\.(java|kt|scala|groovy|cs|php|swift)$/, // UserServiceTest.java, not Contest.java
    ],
  },
  {
    kind: 'translation',
    directories: ['locales', 'locale', 'i18n', 'l10n', 'translations', 'lang', 'langs'],
    names: [/\.(po|pot|xlf|xliff|ftl|arb)$/i],
    directoryFilesOnly: TRANSLATION_DATA,
  },
  {
    kind: 'example',
    directories: ['examples', 'example', 'samples', 'sample', '_examples'],
    names: [/\.(example|sample)$/i, /\.(example|sample)\.[a-z0-9]+$/i],
  },
  {
    kind: 'docs',
    directories: ['docs', 'doc', 'documentation'],
    names: [
      /\.(md|markdown|mdx|rst|adoc|asciidoc)$/i,
      /^(readme|changelog|changes|license|licence|copying|notice|authors|contributors)(\.[a-z]+)?$/i,
    ],
  },
];

/** The kind of the file at a workspace-relative POSIX path. */
export function classifyFile(path: string): FileKind {
  const segments = path.split('/');
  const name = segments.pop() ?? '';
  const directories = segments.map((segment) => segment.toLowerCase());
  for (const rule of FILE_KIND_RULES) {
    if (rule.names.some((pattern) => pattern.test(name))) return rule.kind;
    const inDirectory = directories.some((directory) => rule.directories.includes(directory));
    if (inDirectory && (rule.directoryFilesOnly?.test(name) ?? true)) return rule.kind;
  }
  return 'source';
}
