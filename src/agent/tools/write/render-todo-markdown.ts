import type { TodoItem } from '../tool-types.js';

const STATUS_SUFFIX: Readonly<Record<TodoItem['status'], string>> = {
  pending: '',
  in_progress: ' _(in progress)_',
  done: '',
};

/** The todo list as the Markdown checklist `todo` with persist writes to TODO.md. */
export function renderTodoMarkdown(todos: readonly TodoItem[]): string {
  const lines = todos.map((todo) => {
    const box = todo.status === 'done' ? '[x]' : '[ ]';
    // One line per item: a newline in a task would break the checklist.
    const task = todo.task.replace(/\s*\n\s*/gu, ' ').trim();
    return `- ${box} ${todo.id}. ${task}${STATUS_SUFFIX[todo.status]}`;
  });
  return ['# TODO', '', ...(lines.length > 0 ? lines : ['Nothing to do.']), ''].join('\n');
}
