import type { ToolCall } from '../../providers/types.js';
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

/** `read src/a.ts`, `bash npm test`: the tool and its main argument on one short line, control characters shown inertly. */
export function describeToolCall(call: ToolCall): string {
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  const key = MAIN_ARGUMENT[call.name];
  const value = key !== undefined && typeof args === 'object' ? args[key] : undefined;
  const name = neutralizeControl(call.name, { lineBreaks: 'show' });
  if (typeof value !== 'string') return name;
  const oneLine = neutralizeControl(value.replace(/\s+/g, ' ').trim(), { lineBreaks: 'show' });
  const shown =
    oneLine.length > MAX_SHOWN_CHARS ? `${oneLine.slice(0, MAX_SHOWN_CHARS - 1)}…` : oneLine;
  return `${name} ${shown}`;
}
