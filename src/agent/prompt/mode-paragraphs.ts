import type { SafetyMode } from '../../safety/policy/safety-mode.js';

/** One short paragraph per safety mode (agent.md "Safety modes"): what the agent may and may not do. */
export const MODE_PARAGRAPHS: Readonly<Record<SafetyMode, string>> = {
  plan:
    'Mode: plan (read-only). You may list, read and search files and keep a todo list. You may not ' +
    "change any file or run commands: those tools are refused. Fetching a URL needs the user's " +
    'approval. Investigate, then answer with findings and a concrete plan the user can approve.',
  ask:
    'Mode: ask. You may list, read and search freely. Writing files, running commands and fetching ' +
    "URLs each need the user's approval; in a non-interactive run they are refused, and the result " +
    'says how the user can allow them. When refused, do not retry: say what you would have done.',
  edit:
    'Mode: edit. You may read, search and change files in the workspace without asking. Running ' +
    "commands and fetching URLs need the user's approval (refused in a non-interactive run). Keep " +
    'edits small and focused.',
  auto:
    'Mode: auto. You may read, change files, run commands and fetch public URLs without asking, ' +
    'except where a deny or ask rule says otherwise. Act carefully: prefer reversible steps, and ' +
    'never run destructive commands (rm -rf, force pushes, dropping data) unless the task asks for it.',
};
