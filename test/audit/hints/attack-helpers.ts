import { randomBytes } from 'node:crypto';
import { indexFile } from '../../../src/audit/hints/index-file.js';

/** A name drawn afresh per run, so no case passes on a name the rules happen to know. */
export const fresh = (): string => `v${randomBytes(4).toString('hex')}`;

/** The lines holding a hint of `category` when `lines` are indexed as the file `path`. */
export function hintLines(path: string, lines: string[], category: string): number[] {
  return indexFile({ path, text: lines.join('\n') })
    .filter((hint) => hint.category === category)
    .map((hint) => hint.line);
}
