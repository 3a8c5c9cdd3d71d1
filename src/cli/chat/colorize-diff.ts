import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';

/**
 * One unified-diff line coloured as `git diff` does: headers bold, hunks cyan, additions green, removals
 * red. The line's control characters are shown first, so no diff line can hide another.
 */
export function colorizeDiffLine(untrusted: string, c: Colors): string {
  const line = neutralizeControl(untrusted, { lineBreaks: 'show' });
  if (line.startsWith('+++ ') || line.startsWith('--- ') || line.startsWith('Index: '))
    return c.bold(line);
  if (line.startsWith('@@')) return c.cyan(line);
  if (line.startsWith('+')) return c.green(line);
  if (line.startsWith('-')) return c.red(line);
  if (line.startsWith('\\')) return c.dim(line);
  return line;
}

/** A whole unified diff, line by line (plain when colours are off). */
export function colorizeDiff(diff: string, c: Colors): string {
  return diff
    .split('\n')
    .map((line) => colorizeDiffLine(line, c))
    .join('\n');
}
