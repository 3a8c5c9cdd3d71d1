import { SOURCE_ROOT_ID, type SarifLocation } from './sarif-log.js';

/**
 * A repository-relative location: the audited folder's place below the git top (`pathFromTop`,
 * so code scanning finds the file whatever folder was audited) and the path, percent-encoded per
 * segment (a space, `#` or `%` in a file name must not change the URI's meaning), lines clamped
 * to the 1-based range SARIF allows.
 */
export function locateArtifact(
  pathFromTop: string,
  path: string,
  line: number | null,
  endLine: number | null = null,
): SarifLocation {
  const uri = `${pathFromTop}${path}`.split('/').map(encodeURIComponent).join('/');
  const artifactLocation = { uri, uriBaseId: SOURCE_ROOT_ID } as const;
  if (line === null) return { physicalLocation: { artifactLocation } };
  const startLine = Math.max(1, Math.trunc(line));
  const region =
    endLine !== null && endLine > startLine
      ? { startLine, endLine: Math.trunc(endLine) }
      : { startLine };
  return { physicalLocation: { artifactLocation, region } };
}
