import path from 'node:path';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/isolate-home.ts'],
    // A limit for a hung test, not a speed check: on a machine whose cores are busy with other work
    // a test that spawns the CLI a few times may take minutes, and no test measures time.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Vitest's default leaves one core free; on CI's two cores both test files and the processes
    // they spawn keep busy, and the suite takes about two thirds of the time.
    maxWorkers: 2,
    resolveSnapshotPath: (testPath, extension) =>
      path.join(root, 'snapshots', path.relative(path.join(root, 'test'), testPath) + extension),
  },
});
