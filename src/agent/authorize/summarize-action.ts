import type { ToolAction } from '../../safety/policy/tool-action.js';
import { fitLine } from '../../shared/terminal/fit-text.js';

/** Longest command or URL shown on the one line (the approval preview shows more, and all of it on request). */
const MAX_SUMMARY_CHARS = 100;
/** Longest path or tool name on the line: longer is a name no one types, shown as its head and tail. */
const MAX_NAME_CHARS = 300;

/**
 * What a call is about to do, on one line: `write notes.md`, `run npm test`, `fetch https://example.com/`.
 * Every run of invisible characters is a counted marker (`⟨8,000 spaces⟩`, `⟨escape ^[[2J⟩`), and
 * what is too long shows its head and tail around the number of characters left out. The approval
 * prompt's header, the `approval` event and the session's approval line use it. `redact` sees each
 * untrusted field whole, before anything is cut.
 */
export function summarizeAction(
  action: ToolAction,
  redact: (text: string) => string = (text) => text,
): string {
  const line = (text: string) => fitLine(redact(text), MAX_NAME_CHARS);
  const shorten = (text: string) => fitLine(redact(text), MAX_SUMMARY_CHARS);
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
      return `run ${shorten(action.command)}`;
    case 'webfetch':
      return `fetch ${shorten(action.url)}`;
    case 'todo':
      return 'save the todo list to TODO.md';
    case 'mcp':
      return `call the MCP tool ${line(`${action.mcp.server}:${action.mcp.tool}`)}`;
    default:
      return `${line(action.tool)} ${action.kind === 'read' ? line(action.path) : '.'}`;
  }
}
