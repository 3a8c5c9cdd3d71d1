import { renderDiff } from '../render-diff.js';
import type { ExistingFile } from './read-existing-file.js';

/** The diff from what a file holds now to `after`; a binary or oversized file is named, not shown. */
export function diffExisting(relativePath: string, before: ExistingFile, after: string): string {
  switch (before.kind) {
    case 'absent':
      return renderDiff(relativePath, null, after);
    case 'text':
      return renderDiff(relativePath, before.text, after);
    default:
      return (
        `(${relativePath} was a ${before.kind === 'binary' ? 'binary ' : ''}file of ${before.bytes} bytes, not shown)\n` +
        renderDiff(relativePath, '', after)
      );
  }
}
