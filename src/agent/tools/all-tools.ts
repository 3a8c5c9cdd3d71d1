import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import { MODE_TABLE } from '../../safety/policy/mode-table.js';
import { askTool } from './ask-tool.js';
import { bashTool } from './bash-tool.js';
import { editTool } from './edit-tool.js';
import { listTool } from './list-tool.js';
import { readTool } from './read-tool.js';
import { replaceTool } from './replace-tool.js';
import { searchTool } from './search-tool.js';
import type { AgentTool } from './tool-types.js';
import { todoTool } from './todo-tool.js';
import { webfetchTool } from './webfetch-tool.js';
import { writeTool } from './write-tool.js';

/** Every tool the loop can run, in the order the model sees them (README.md "Tools"). */
export const ALL_TOOLS: readonly AgentTool[] = [
  listTool,
  readTool,
  searchTool,
  writeTool,
  editTool,
  replaceTool,
  bashTool,
  webfetchTool,
  todoTool,
  askTool,
];

/**
 * The tools offered to the model in a mode: every kind the mode table does not refuse outright, and `ask`
 * only when someone can answer. Hiding is a courtesy to the model, not the guard: the loop still runs
 * any known tool it is asked for, and the policy decides at execution.
 */
export function offeredTools(
  mode: SafetyMode,
  isInteractive: boolean,
  extra: readonly AgentTool[] = [],
): AgentTool[] {
  const builtIn = ALL_TOOLS.filter((tool) => {
    if (tool.kind === 'ask') return isInteractive;
    return MODE_TABLE[mode][tool.kind] !== 'deny';
  });
  // Tools from other sources (MCP servers) are offered in plan mode only when marked read-only.
  return [...builtIn, ...extra.filter((tool) => mode !== 'plan' || tool.isOfferedInPlan === true)];
}

/** Every tool the loop can run, with those of other sources (MCP servers) after the built-in ones. */
export function allTools(extra: readonly AgentTool[] = []): AgentTool[] {
  return [...ALL_TOOLS, ...extra];
}
