import path from 'node:path';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/isolate-home.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    resolveSnapshotPath: (testPath, extension) =>
      path.join(root, 'snapshots', path.relative(path.join(root, 'test'), testPath) + extension),
  },
});
