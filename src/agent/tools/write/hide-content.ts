import path from 'node:path';
import { isSecretBearingFile } from '../../../safety/secret-files.js';
import type { ToolContext } from '../tool-types.js';

/**
 * Why a write tool must not show a file's old content, or undefined when it may: a secret-bearing
 * file, or a path the Read rules refuse or ask about. Decided by name and rules alone.
 */
export function whyContentHidden(relativePath: string, context: ToolContext): string | undefined {
  const posixPath = relativePath.split(path.sep).join('/');
  if (isSecretBearingFile(posixPath)) return 'a secret-bearing file';
  if (!context.canRead(posixPath)) return 'a Read rule covers it';
  return undefined;
}

/**
 * The preview and result of a change to a hidden file: a notice, then only text the model itself
 * supplied (`added`, as `+` lines), never a line of what the file held.
 */
export function renderHiddenChange(
  relativePath: string,
  why: string,
  added: string | undefined,
): string {
  const posixPath = relativePath.split(path.sep).join('/');
  const notice = `(existing content of ${posixPath} hidden: ${why})\n`;
  if (added === undefined || added === '') return notice;
  const lines = added.replace(/\n$/u, '').split('\n');
  return `${notice}+++ b/${posixPath}\n${lines.map((line) => `+${line}`).join('\n')}\n`;
}
