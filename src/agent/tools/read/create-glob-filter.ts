import { createIgnoreMatcher } from '../../../shared/ignore/ignore-matcher.js';

/** `glob` is one gitignore-style pattern (`*.ts` matches at any depth); no glob keeps every path. */
export function createGlobFilter(glob: string | undefined): (relativePath: string) => boolean {
  if (glob === undefined || glob.trim() === '') return () => true;
  const matcher = createIgnoreMatcher();
  matcher.addPatterns([glob]);
  return (relativePath) => matcher.ignores(relativePath, false);
}
