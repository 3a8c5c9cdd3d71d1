import type { TodoItem, SessionSummary, UndoPlan } from '../../agent/index.js';
import type { PermissionRules } from '../../config/config-schema.js';

const TODO_MARKS: Readonly<Record<TodoItem['status'], string>> = {
  pending: '[ ]',
  in_progress: '[~]',
  done: '[x]',
};

/** /todo: one line per item, `[ ] pending`, `[~] in progress`, `[x] done`. */
export function formatTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'no todos';
  return todos.map((todo) => `${TODO_MARKS[todo.status]} ${todo.task}`).join('\n');
}

/** /permissions: what "always" granted this session, then the config rules. */
export function formatPermissions(grants: readonly string[], rules: PermissionRules): string {
  const list = (items: readonly string[]) =>
    items.length === 0 ? '  (none)' : items.map((item) => `  ${item}`).join('\n');
  return [
    'granted this session by "always" (exact commands and paths, kept in memory only):',
    list(grants),
    'config allow rules:',
    list(rules.allow),
    'config ask rules:',
    list(rules.ask),
    'config deny rules:',
    list(rules.deny),
  ].join('\n');
}

/** /undo's report: `undone turn 3: restored a.ts, removed b.ts` (plus warnings), or why nothing was undone. */
export function formatUndo(plan: UndoPlan): string {
  if (plan.kind === 'nothing') return 'nothing to undo';
  if (plan.kind === 'folded')
    return `cannot undo turn ${plan.turn}: compaction has folded it into a summary`;
  const files = plan.files;
  const names = (items: readonly string[] | undefined) =>
    items === undefined || items.length === 0 ? 'nothing' : items.join(', ');
  const lines = [
    `undone turn ${plan.turn}: restored ${names(files?.restored)}, removed ${names(files?.removed)}`,
  ];
  if (files?.unrestorable) lines.push(`warning: ${files.unrestorable}`);
  for (const failure of files?.failed ?? []) lines.push(`warning: could not restore ${failure}`);
  return lines.join('\n');
}

/** /load alone: the sessions of this workspace, newest first, numbered for /load <number>. */
export function formatSessionList(
  sessions: readonly SessionSummary[],
  currentId: string | undefined,
): string {
  if (sessions.length === 0) return 'no saved sessions in this workspace';
  const lines = sessions.map((summary) => {
    const mark = summary.id === currentId ? '*' : ' ';
    const name = summary.name === undefined ? '' : ` [${summary.name}]`;
    const prompt = summary.firstPrompt.replace(/\s+/gu, ' ').slice(0, 60);
    return `${mark}${String(summary.number).padStart(3)}  ${summary.id}${name}  ${summary.turns} turns  ${prompt}`;
  });
  return [...lines, 'load one with /load <number|id|name>'].join('\n');
}
