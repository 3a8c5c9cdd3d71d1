import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/agent/checkpoint/checkpoints.js';
import { todoTool } from '../../../src/agent/tools/todo-tool.js';
import { makeToolContext, type TestToolContextOptions } from './make-tool-context.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-todo-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const todos = [
  { id: '1', task: 'Read the code', status: 'done' },
  { id: '2', task: 'Write the tests', status: 'in_progress' },
  { id: '3', task: 'Ship', status: 'pending' },
];

async function todo(args: Record<string, unknown>, options: TestToolContextOptions = {}) {
  const context = makeToolContext(root, options);
  const result = await todoTool.run(args, context);
  return { result, body: JSON.parse(result.content) as Record<string, unknown>, context };
}

describe('todo', () => {
  it('replaces the list without touching the disk', async () => {
    const { body, context } = await todo({ todos });
    expect(body).toEqual({
      ok: true,
      todos: 3,
      pending: 1,
      in_progress: 1,
      done: 1,
      persisted: false,
    });
    expect(context.todos.get()).toEqual(todos);
    expect(context.approvals[0]?.action).toEqual({ kind: 'read', tool: 'todo' });
    expect(existsSync(path.join(root, 'TODO.md'))).toBe(false);
  });

  it('is a read in plan mode: allowed without persist', async () => {
    const { result } = await todo({ todos }, { mode: 'plan' });
    expect(result.ok).toBe(true);
  });

  it('with persist writes TODO.md as a checklist and shows a diff', async () => {
    const { body, context } = await todo({ todos, persist: true });
    expect(body).toMatchObject({ ok: true, persisted: true, path: 'TODO.md' });
    expect(readFileSync(path.join(root, 'TODO.md'), 'utf8')).toBe(
      '# TODO\n\n- [x] 1. Read the code\n- [ ] 2. Write the tests _(in progress)_\n- [ ] 3. Ship\n',
    );
    expect(body.diff).toContain('--- /dev/null\n+++ b/TODO.md\n@@ -0,0 +1,5 @@');
    expect(context.approvals[0]).toMatchObject({
      action: { kind: 'write', tool: 'todo', path: 'TODO.md' },
      preview: body.diff,
    });
    expect(context.checkpointCalls).toEqual([`file:${path.join(root, 'TODO.md')}`]);
  });

  it('with persist is refused in plan mode and writes nothing, not even the list', async () => {
    const { result, context } = await todo({ todos, persist: true }, { mode: 'plan' });
    expect(result.denied?.rule).toBe('mode:plan');
    expect(context.todos.get()).toEqual([]);
    expect(existsSync(path.join(root, 'TODO.md'))).toBe(false);
  });

  it('refuses to persist through a TODO.md link', async () => {
    symlinkSync('/etc/hostname', path.join(root, 'TODO.md'));
    const { body } = await todo({ todos, persist: true });
    expect(body.error).toContain('[symlink-write]');
  });

  it.each([
    [{ todos: [{ id: '1', task: 'x', status: 'started' }] }, 'todos.0.status'],
    [{ todos: [{ id: '1', task: '', status: 'done' }] }, 'todos.0.task'],
    [
      {
        todos: [
          { id: '1', task: 'a', status: 'done' },
          { id: '1', task: 'b', status: 'done' },
        ],
      },
      'its own id',
    ],
    [{}, 'todos'],
  ])('rejects %o', async (args, message) => {
    const { body } = await todo(args);
    expect(body.error).toContain(message);
  });

  it('persisting is undone by the checkpoints', async () => {
    const checkpoints = new Checkpoints({ workspaceRoot: root });
    checkpoints.beginTurn(1);
    await todoTool.run(
      { todos, persist: true },
      makeToolContext(root, { overrides: { checkpoints } }),
    );
    checkpoints.beginTurn(2);
    await todoTool.run(
      { todos: todos.slice(0, 1), persist: true },
      makeToolContext(root, { overrides: { checkpoints } }),
    );
    expect(await checkpoints.undoLastTurn()).toMatchObject({ turn: 2, restored: ['TODO.md'] });
    expect(readFileSync(path.join(root, 'TODO.md'), 'utf8')).toContain('3. Ship');
    expect(await checkpoints.undoLastTurn()).toMatchObject({ turn: 1, removed: ['TODO.md'] });
    expect(existsSync(path.join(root, 'TODO.md'))).toBe(false);
  });
});
