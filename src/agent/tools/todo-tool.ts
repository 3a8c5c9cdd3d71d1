import { z } from 'zod';
import { TODO_FILE } from '../../safety/policy/tool-action.js';
import { defineTool } from './define-tool.js';
import type { TodoItem } from './tool-types.js';
import { diffExisting } from './write/diff-existing.js';
import { renderHiddenChange, whyContentHidden } from './write/hide-content.js';
import { readExistingFile } from './write/read-existing-file.js';
import { renderTodoMarkdown } from './write/render-todo-markdown.js';
import { resolveWriteTarget } from './write/resolve-write-target.js';
import { writePlannedFile, type PlannedFile } from './write/write-planned-file.js';

// A plan longer than this is no longer a list anyone reads.
const MAX_TODOS = 100;

const todoSchema = z.strictObject({
  id: z.string().min(1).max(40).describe('Short stable id, such as "1" or "tests"'),
  task: z.string().min(1).max(500).describe('What to do, in one line'),
  status: z.enum(['pending', 'in_progress', 'done']),
});

const schema = z.strictObject({
  todos: z
    .array(todoSchema)
    .max(MAX_TODOS)
    .refine((todos) => new Set(todos.map((todo) => todo.id)).size === todos.length, {
      message: 'every todo needs its own id',
    })
    .describe('The whole new list; it replaces the previous one'),
  persist: z
    .boolean()
    .default(false)
    .describe(`Also write the list to ${TODO_FILE} in the workspace (a file change)`),
});

type TodoPlan = (PlannedFile & { diff: string }) | undefined;

/** `todo`: replaces the session's todo list, and with persist writes it to TODO.md. */
export const todoTool = defineTool({
  name: 'todo',
  // A read tool: it changes only the session's list; with persist its call is judged as a write.
  kind: 'read',
  description:
    'Replace the todo list for this task (shown back to you in the system prompt). Keep one item ' +
    `in_progress at a time and mark items done as you go. persist: true also writes ${TODO_FILE} ` +
    '(a file change, allowed only where writes are).',
  schema,
  intend(args, context) {
    if (!args.persist) return { action: { kind: 'read', tool: 'todo' }, target: undefined };
    const target = resolveWriteTarget(context.workspaceRoot, TODO_FILE);
    return { action: { kind: 'write', tool: 'todo', path: TODO_FILE }, target };
  },
  async plan(args, context, target) {
    if (target === undefined) return { data: undefined as TodoPlan };
    const before = await readExistingFile(target.absolutePath, target.relativePath);
    const content = renderTodoMarkdown(args.todos);
    const hidden = whyContentHidden(target.relativePath, context);
    const diff =
      hidden === undefined
        ? diffExisting(target.relativePath, before, content)
        : renderHiddenChange(target.relativePath, hidden, content);
    const data: TodoPlan = { ...target, before, content, diff };
    return { preview: diff || `(no change to ${TODO_FILE})`, data };
  },
  async execute(args, context, planned) {
    if (planned !== undefined) await writePlannedFile(context, planned);
    const todos: TodoItem[] = args.todos.map((todo) => ({ ...todo }));
    context.todos.set(todos);
    return {
      todos: todos.length,
      pending: countStatus(todos, 'pending'),
      in_progress: countStatus(todos, 'in_progress'),
      done: countStatus(todos, 'done'),
      persisted: planned !== undefined,
      ...(planned === undefined ? {} : { path: planned.relativePath, diff: planned.diff }),
    };
  },
});

function countStatus(todos: readonly TodoItem[], status: TodoItem['status']): number {
  return todos.filter((todo) => todo.status === status).length;
}
