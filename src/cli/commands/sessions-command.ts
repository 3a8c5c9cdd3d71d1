import { listSessions, loadSession, readSessionFile } from '../../agent/index.js';
import { resolveOyPaths } from '../../config/config-paths.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { stringifyForTerminal } from '../../shared/terminal/stringify-for-terminal.js';
import type { GlobalOptions } from '../global-options.js';
import { resolveWorkspaceRoot } from '../resolve-workspace-root.js';
import { renderSessionList } from '../sessions/render-session-list.js';
import { renderSessionFile } from '../sessions/render-session-file.js';
import { UsageError } from '../../shared/errors.js';
import { createColors, shouldColor } from '../terminal.js';

/** `oy sessions`: this workspace's saved sessions, newest first, as a table or (`--json`) an array; `show <session>` renders one. */
export async function runSessionsCommand(
  options: GlobalOptions,
  action?: string,
  selector?: string,
): Promise<void> {
  const env = process.env;
  const root = resolveWorkspaceRoot(options.cwd, env);
  if (action !== undefined) {
    await showSession(root, env, options, action, selector);
    return;
  }
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

async function showSession(
  root: string,
  env: NodeJS.ProcessEnv,
  options: GlobalOptions,
  action: string,
  selector: string | undefined,
): Promise<void> {
  if (action !== 'show')
    throw new UsageError(
      `unknown oy sessions action ${JSON.stringify(neutralizeControl(action))}`,
      {
        hint: 'oy sessions lists them; oy sessions show <id|number|name> renders one',
      },
    );
  if (selector === undefined)
    throw new UsageError('oy sessions show needs a session', {
      hint: 'give its id, its number from oy sessions, or its name: oy sessions show 1',
    });
  const loaded = await loadSession(resolveOyPaths(env).stateDir, root, selector);
  const content = await readSessionFile(loaded.summary.file);
  if (content === undefined)
    throw new UsageError(`session ${neutralizeControl(selector)} cannot be read`, {
      hint: 'oy sessions lists the sessions this workspace has',
    });
  if (options.json) {
    process.stdout.write(stringifyForTerminal(content, 2) + '\n');
    return;
  }
  process.stdout.write(
    renderSessionFile(content, createColors(shouldColor(process.stdout, options, env))),
  );
}
