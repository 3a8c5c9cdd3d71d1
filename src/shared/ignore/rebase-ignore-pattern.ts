// Characters a directory name must escape to be read literally inside a gitignore pattern.
const GLOB_SPECIAL = /[\\*?[\]]/g;

/**
 * Rewrites one line of the `.gitignore` in `baseDir` (root-relative, no trailing slash) into a
 * root-relative pattern with the same meaning, so every level's rules can live in one matcher
 * where later (deeper) rules win, as in git. Returns null for blank lines and comments.
 */
export function rebaseIgnorePattern(line: string, baseDir: string): string | null {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.trim() === '' || text.startsWith('#')) return null;
  if (baseDir === '') return text;
  const isNegated = text.startsWith('!');
  const body = isNegated ? text.slice(1) : text;
  const core = body.trimEnd().replace(/\/+$/, '');
  if (core === '') return null;
  let base = baseDir.replace(GLOB_SPECIAL, '\\$&');
  if (base.startsWith('#') || base.startsWith('!')) base = `\\${base}`;
  // A slash before the end anchors the pattern to its directory; otherwise it matches at any depth.
  const rebased = core.includes('/') ? `${base}/${body.replace(/^\/+/, '')}` : `${base}/**/${body}`;
  return isNegated ? `!${rebased}` : rebased;
}
