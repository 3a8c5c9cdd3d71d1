import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OY_BIN, PROJECT_ROOT } from './run-oy.js';

const PACKAGE = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

/** This project's npm name and version, as CI recipes must name them. */
export const PACKAGE_NAME = PACKAGE.name;
export const PACKAGE_VERSION = PACKAGE.version;

/**
 * A folder of shims that CI recipes find first on PATH: `npx --yes <this package>@<version> …` and
 * `npx oy …` run the built CLI; any other package npx is asked for, or a version range this
 * package's version does not satisfy, fails with exit 99, so a recipe that would fetch a stranger's
 * code cannot pass.
 */
export function makeCiShims(): string {
  const shims = mkdtempSync(path.join(tmpdir(), 'oy-ci-shims-'));
  const [major, minor, patch] = PACKAGE_VERSION.split('.');
  const accepted = [
    `${PACKAGE_NAME}@${major}`,
    `${PACKAGE_NAME}@${major}.${minor}`,
    `${PACKAGE_NAME}@${major}.${minor}.${patch}`,
    'oy',
  ].join('|');
  writeFileSync(
    path.join(shims, 'npx'),
    `#!/bin/sh\nwhile [ $# -gt 0 ]; do case "$1" in --yes|-y) shift ;; ${accepted}) shift; break ;; *) echo "unexpected npx $*" >&2; exit 99 ;; esac; done\nexec node "${OY_BIN}" "$@"\n`,
  );
  writeFileSync(path.join(shims, 'oy'), `#!/bin/sh\nexec node "${OY_BIN}" "$@"\n`);
  chmodSync(path.join(shims, 'npx'), 0o755);
  chmodSync(path.join(shims, 'oy'), 0o755);
  return shims;
}
