import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { LineEditor } from './line-editor/create-line-editor.js';

/**
 * Asks, on stderr, whether to start the servers a workspace `.mcp.json` names (each shown as
 * describeMcpServers wrote it: command, arguments, folder, env, URL and header names); only `y` or
 * `yes` approves, and openMcpTools remembers a yes for that file content.
 */
export function askAboutProjectMcp(
  editor: LineEditor,
  stderr: NodeJS.WritableStream,
): (servers: readonly string[]) => Promise<boolean> {
  return async (servers) => {
    const shown = servers.map((line) => `  ${neutralizeControl(line, { lineBreaks: 'show' })}`);
    stderr.write(
      `This workspace's .mcp.json wants to start these MCP servers:\n${shown.join('\n')}\n`,
    );
    const answer = await editor.ask('Start them now and whenever this file is unchanged? [y/N] ');
    return answer !== null && /^y(es)?$/iu.test(answer.trim());
  };
}
