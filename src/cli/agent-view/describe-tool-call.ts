import type { ToolCall } from '../../providers/types.js';
import { fitLine } from '../../shared/terminal/fit-text.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';

/** Longest argument shown on a progress line. */
const MAX_SHOWN_CHARS = 80;
/** The argument that says most about each tool's call. */
const MAIN_ARGUMENT: Readonly<Record<string, string>> = {
  list: 'path',
  read: 'path',
  search: 'pattern',
  write: 'path',
  edit: 'path',
  replace: 'pattern',
  bash: 'command',
  webfetch: 'url',
  ask: 'question',
};

/**
 * `read src/a.ts`, `bash npm test`: the tool and its main argument on one short line, every invisible
 * run a counted marker (`⟨8,000 spaces⟩`), a long one as its head and tail with the characters left
 * out counted (`--json` prints the call whole).
 */
export function describeToolCall(call: ToolCall): string {
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  const key = MAIN_ARGUMENT[call.name];
  const value = key !== undefined && typeof args === 'object' ? args[key] : undefined;
  const name = neutralizeControl(call.name, { lineBreaks: 'show' });
  if (typeof value !== 'string') return name;
  return `${name} ${fitLine(value, MAX_SHOWN_CHARS)}`;
}
