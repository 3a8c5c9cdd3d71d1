import { describe, expect, test } from 'vitest';
import { reviewScopeOf } from '../../../src/audit/scope/audit-scope.js';
import { classifyFile, type FileKind } from '../../../src/audit/scope/classify-file.js';

const CASES: [string, FileKind][] = [
  // Code that ships, configuration, CI, infrastructure and scripts.
  ['src/routes/orders.js', 'source'],
  ['app/models/user.rb', 'source'],
  ['cmd/server/main.go', 'source'],
  ['.github/workflows/ci.yml', 'source'],
  ['deploy/Dockerfile', 'source'],
  ['terraform/main.tf', 'source'],
  ['scripts/release.sh', 'source'],
  ['package.json', 'source'],
  ['src/i18n/index.ts', 'source'], // the set-up code of translations ships
  ['src/latest.js', 'source'], // "test" inside a word is no test
  ['src/Contest.java', 'source'],
  ['src/testing-utils/clock.ts', 'source'],
  ['requirements.txt', 'source'],
  // Tests, across ecosystems.
  ['test/app.test.ts', 'test'],
  ['tests/test_models.py', 'test'],
  ['src/__tests__/cart.tsx', 'test'],
  ['src/cart.spec.ts', 'test'],
  ['pkg/store/handler_test.go', 'test'],
  ['app/test_views.py', 'test'],
  ['conftest.py', 'test'],
  ['spec/models/user_spec.rb', 'test'],
  ['src/test/java/com/shop/UserServiceTest.java', 'test'],
  ['e2e/checkout.ts', 'test'],
  // Fixtures and test data win over the test folder that holds them.
  ['test/fixtures/users.json', 'fixture'],
  ['pkg/parser/testdata/input.txt', 'fixture'],
  ['src/__mocks__/fs.js', 'fixture'],
  ['src/__snapshots__/cart.test.tsx.snap', 'fixture'],
  // Documentation.
  ['docs/architecture/index.html', 'docs'],
  ['README.md', 'docs'],
  ['CHANGELOG', 'docs'],
  ['LICENSE', 'docs'],
  ['guide/install.rst', 'docs'],
  // Translations: data under a locale folder, and catalogue formats anywhere.
  ['locales/fr.json', 'translation'],
  ['config/locales/de.yml', 'translation'],
  ['public/i18n/es.json', 'translation'],
  ['po/pt_BR.po', 'translation'],
  ['resources/lang/en/messages.php', 'source'],
  // Examples and samples.
  ['examples/client.js', 'example'],
  ['samples/basic/main.go', 'example'],
  ['.env.example', 'example'],
  ['config/settings.sample.yml', 'example'],
];

describe('classifyFile', () => {
  test.each(CASES)('%s is %s', (path, kind) => {
    expect(classifyFile(path)).toBe(kind);
  });

  test('directory names match whatever their case', () => {
    expect(classifyFile('Tests/AppTests.cs')).toBe('test');
    expect(classifyFile('Docs/Setup.txt')).toBe('docs');
  });
});

describe('scope', () => {
  test('shipping sends source only; all sends every kind', () => {
    expect(reviewScopeOf('source', 'shipping')).toBe('model');
    for (const kind of ['test', 'fixture', 'docs', 'translation', 'example'] as const) {
      expect(reviewScopeOf(kind, 'shipping')).toBe('deterministic');
      expect(reviewScopeOf(kind, 'all')).toBe('model');
    }
  });
});

console.log(`classify-file: ${CASES.length + 4} cases`);
