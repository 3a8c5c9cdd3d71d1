import { listSessions } from '../../agent/session/session-store.js';
import { resolveOyPaths } from '../../config/config-paths.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { stringifyForTerminal } from '../../shared/terminal/stringify-for-terminal.js';
import type { GlobalOptions } from '../global-options.js';
import { resolveWorkspaceRoot } from '../resolve-workspace-root.js';
import { renderSessionList } from '../sessions/render-session-list.js';
import { createColors, shouldColor } from '../terminal.js';

/** `oy sessions`: this workspace's saved sessions, newest first, as a table or (`--json`) an array. */
export async function runSessionsCommand(options: GlobalOptions): Promise<void> {
  const env = process.env;
  const root = resolveWorkspaceRoot(options.cwd, env);
  const sessions = await listSessions(resolveOyPaths(env).stateDir, root);
  if (options.json) {
    process.stdout.write(stringifyForTerminal(sessions, 2) + '\n');
    return;
  }
  if (sessions.length === 0) {
    // Nothing to list is not an error, and stdout carries only results.
    if (!options.quiet)
      process.stderr.write(
        `no saved sessions for ${neutralizeControl(root, { lineBreaks: 'show' })}; oy run and oy chat save them\n`,
      );
    return;
  }
  const colors = createColors(shouldColor(process.stdout, options, env));
  process.stdout.write(renderSessionList(sessions, colors));
}
