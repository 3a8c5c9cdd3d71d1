/**
 * Orders paths so that every directory's own files are contiguous and come before its
 * subdirectories, and every subtree is contiguous: `b.ts`, `a/x.ts`, `a/b/y.ts`, `a/c/z.ts`.
 * Code-unit order, never locale order, so every machine agrees.
 */
export function comparePathsByDirectory(a: string, b: string): number {
  const segmentsA = a.split('/');
  const segmentsB = b.split('/');
  const dirDepthA = segmentsA.length - 1;
  const dirDepthB = segmentsB.length - 1;
  for (let i = 0; i < Math.min(dirDepthA, dirDepthB); i++) {
    const order = compareText(segmentsA[i]!, segmentsB[i]!);
    if (order !== 0) return order;
  }
  // Same directory up to the shallower one: its own files come before deeper ones.
  if (dirDepthA !== dirDepthB) return dirDepthA - dirDepthB;
  return compareText(segmentsA[dirDepthA]!, segmentsB[dirDepthB]!);
}

/** How many leading directory segments two paths share (`a/b/x.ts`, `a/c/y.ts`: 1). */
export function sharedDirectoryDepth(a: string, b: string): number {
  const segmentsA = a.split('/');
  const segmentsB = b.split('/');
  const limit = Math.min(segmentsA.length, segmentsB.length) - 1;
  let depth = 0;
  while (depth < limit && segmentsA[depth] === segmentsB[depth]) depth++;
  return depth;
}

/** Whether two paths sit in the same directory. */
export function isSameDirectory(a: string, b: string): boolean {
  return a.slice(0, a.lastIndexOf('/') + 1) === b.slice(0, b.lastIndexOf('/') + 1);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
