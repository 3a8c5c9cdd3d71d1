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
    // Vitest's default leaves one core free; on CI's two cores both test files and the processes
    // they spawn keep busy, and the suite takes about two thirds of the time.
    maxWorkers: 2,
    resolveSnapshotPath: (testPath, extension) =>
      path.join(root, 'snapshots', path.relative(path.join(root, 'test'), testPath) + extension),
  },
});
