import type { DoctorCheck } from './doctor-check.js';

/** package.json `engines`: the first 20.x with require(esm) and stable JSON modules. */
export const MINIMUM_NODE_VERSION = '20.19.0';

/** Whether this Node is new enough (required). */
export function checkNodeVersion(version: string = process.versions.node): DoctorCheck {
  const isNewEnough = compareVersions(version, MINIMUM_NODE_VERSION) >= 0;
  return {
    id: 'node',
    status: isNewEnough ? 'ok' : 'fail',
    detail: `Node ${version} (${MINIMUM_NODE_VERSION.replace(/\.0$/, '')} or later required)`,
    ...(isNewEnough ? {} : { hint: 'install Node 20.19 or later (or 22+)' }),
    data: { version, minimum: MINIMUM_NODE_VERSION },
  };
}

function compareVersions(a: string, b: string): number {
  const parse = (text: string) =>
    text
      .replace(/^v/, '')
      .split('.')
      .map((part) => parseInt(part, 10) || 0);
  const [left, right] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
