import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/run-oy.js';

const CLI = path.join(PROJECT_ROOT, 'src', 'cli');
const AGENT = path.join(PROJECT_ROOT, 'src', 'agent');
const FRONT_DOOR = path.join(AGENT, 'index.ts');
/** Defaults the help shows before any agent code loads: it must import nothing. */
const LIGHT_DOOR = path.join(AGENT, 'defaults.ts');

/** Every module a file names: imports (type-only too), re-exports and lazy `import()`, as TypeScript reads them. */
function namedModules(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((file) => file.fileName);
}

/** The modules of agent/ that a file at `file` names, other than the front door. */
function agentImportsPastTheDoor(file: string, text: string): string[] {
  return namedModules(text).filter((name) => {
    if (!name.startsWith('.')) return false;
    const target = path.resolve(path.dirname(file), name).replace(/\.js$/u, '.ts');
    const isInAgent = target === AGENT || target.startsWith(AGENT + path.sep);
    return isInAgent && target !== FRONT_DOOR && target !== LIGHT_DOOR;
  });
}

function cliFiles(folder: string = CLI): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return cliFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('cli/ reaches the agent only through agent/index.ts', () => {
  const files = cliFiles();

  it('no file of src/cli imports anything of src/agent but its front door', () => {
    // Enough files to mean the walk found the tree, and some of them use the door.
    expect(files.length).toBeGreaterThan(50);
    const users = files.filter((file) =>
      namedModules(readFileSync(file, 'utf8')).some((name) => name.endsWith('agent/index.js')),
    );
    expect(users.length).toBeGreaterThan(10);
    const past = files.flatMap((file) =>
      agentImportsPastTheDoor(file, readFileSync(file, 'utf8')).map(
        (name) => `${path.relative(PROJECT_ROOT, file)}: ${name}`,
      ),
    );
    expect(past).toEqual([]);
  });

  it('the light door imports nothing, so reading it loads no agent code', () => {
    expect(namedModules(readFileSync(LIGHT_DOOR, 'utf8'))).toEqual([]);
  });

  it('control: a planted import past the door is caught, in every form it can take', () => {
    const file = path.join(CLI, 'commands', 'planted.ts');
    const planted = [
      "import { runAgentLoop } from '../../agent/loop/run-agent-loop.js';",
      "import type { AgentState } from '../../agent/loop/agent-state.js';",
      "export { loadRecording } from '../../agent/replay/load-recording.js';",
      "export * from '../../agent/events.js';",
      "const lazy = () => import('../../agent/session/session-store.js');",
      "type Lazy = typeof import('../../agent/tools/read-tool.js');",
      "import { x } from '../chat/../../agent/shell/sandbox.js';",
    ];
    for (const line of planted) expect(agentImportsPastTheDoor(file, line)).toHaveLength(1);
    // The real door passes, as do imports that only look alike.
    const allowed = [
      "import { openAgentSession } from '../../agent/index.js';",
      "import { x } from '../run/agent-flags.js';",
      "import { y } from './agent/thing.js';",
    ];
    for (const line of allowed) expect(agentImportsPastTheDoor(file, line)).toEqual([]);
  });
});
