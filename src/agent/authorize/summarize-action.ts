import type { ToolAction } from '../../safety/policy/tool-action.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';

/** Longest command or URL shown on the one line (the approval preview has it whole). */
const MAX_SUMMARY_CHARS = 100;

/**
 * What a call is about to do, on one line with control characters shown: `write notes.md`,
 * `run npm test`, `fetch https://example.com/`. The approval prompt's header and the session's
 * approval line both use it. `redact` sees each untrusted field whole, before anything is cut.
 */
export function summarizeAction(
  action: ToolAction,
  redact: (text: string) => string = (text) => text,
): string {
  const line = (text: string) => oneLine(redact(text));
  switch (action.tool) {
    case 'write':
    case 'edit':
    case 'read':
      return `${action.tool} ${line(action.path)}`;
    case 'replace':
      // The policy judges every file the walk found; the diff below shows the ones that change.
      return action.files.length > 3
        ? `replace text under ${line(action.path)} (${action.files.length} files)`
        : `replace text in ${line(action.files.length > 0 ? action.files.join(', ') : action.path)}`;
    case 'bash':
      return `run ${shorten(redact(action.command))}`;
    case 'webfetch':
      return `fetch ${shorten(redact(action.url))}`;
    case 'todo':
      return 'save the todo list to TODO.md';
    case 'mcp':
      return `call the MCP tool ${line(`${action.mcp.server}:${action.mcp.tool}`)}`;
    default:
      return `${line(action.tool)} ${action.kind === 'read' ? line(action.path) : '.'}`;
  }
}

function shorten(text: string): string {
  const line = oneLine(text.replace(/\s+/gu, ' ').trim());
  return line.length > MAX_SUMMARY_CHARS ? `${line.slice(0, MAX_SUMMARY_CHARS - 1)}…` : line;
}

function oneLine(text: string): string {
  return neutralizeControl(text, { lineBreaks: 'show' });
}
