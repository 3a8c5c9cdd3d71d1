import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The first executable file called `name` in an absolute PATH entry, found by looking at files
 * (nothing is run). Relative and empty entries (`./node_modules/.bin`, `::`) are skipped: they
 * name folders of whatever directory oy runs in, which is the untrusted workspace.
 */
export function findOnPath(name: string, pathVariable: string | undefined): string | null {
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return candidate;
      }
    } catch {
      // Missing or not executable: try the next directory.
    }
  }
  return null;
}
