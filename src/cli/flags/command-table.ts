import { AUDIT_FLAGS } from './audit-flags.js';
import { CHAT_FLAGS, RUN_FLAGS } from './agent-flags.js';
import { REPORT_FLAGS } from './report-flags.js';
import type { CommandSpec, FlagSpec } from './flag-spec.js';

/** Flags every command accepts (README.md "Options", global options). */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { name: 'json', kind: 'switch', help: 'Machine-readable output on stdout' },
  { name: 'quiet', kind: 'switch', help: 'Only errors on stderr' },
  { name: 'verbose', kind: 'switch', help: 'More detail, and stack traces for errors' },
  {
    name: 'no-color',
    kind: 'switch',
    help: 'No colours (also NO_COLOR; FORCE_COLOR forces them)',
  },
  {
    name: 'cwd',
    kind: 'text',
    placeholder: '<dir>',
    example: '--cwd path/to/repo',
    help: 'Workspace directory (also OY_ROOT)',
    defaultText: 'the current directory',
  },
  {
    name: 'model',
    kind: 'text',
    placeholder: '<id>',
    example: '--model anthropic::claude-haiku-4-5',
    configKey: 'model',
    help: 'Model id, such as anthropic::<model> or openai::gpt-5; oy model lists them (also OY_MODEL)',
  },
  { name: 'help', short: 'h', kind: 'switch', help: 'Show this help' },
  { name: 'version', short: 'v', kind: 'switch', help: 'Show the version' },
];

/** Every command, in help order; the last is the `oy "prompt"` shorthand for `oy run`. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'audit',
    args: '[path] [...focus]',
    description: 'Audit the workspace and write a report',
    flags: AUDIT_FLAGS,
    examples: [
      'oy audit --out report.md',
      'oy audit . auth --format sarif --out oy.sarif',
      'oy audit --format json --out - | jq .coverage',
    ],
  },
  {
    name: 'report',
    args: '<action> [...files]',
    description:
      'merge: the JSON shard reports of oy audit --shard k/n into the report one unsharded run writes',
    flags: REPORT_FLAGS,
    examples: [
      'oy report merge oy-shard-*.json --out oy.sarif',
      'oy report merge shards/*.json --out ISSUES.md --fail-on high',
    ],
  },
  {
    name: 'model',
    args: '[id]',
    description: 'List known and discovered models; with an id, save it as the default',
    flags: [],
    examples: ['oy model', 'oy model anthropic::claude-haiku-4-5'],
  },
  {
    name: 'doctor',
    args: '',
    description: 'Check the set-up: node, workspace, config, credentials, model, tools, sandbox',
    flags: [
      {
        name: 'online',
        kind: 'switch',
        help: 'Also make one minimal request to the model to prove the credentials work',
      },
    ],
    examples: ['oy doctor', 'oy doctor --online'],
  },
  {
    name: 'run',
    args: '[...prompt]',
    description: 'One task, non-interactive, then exit; the prompt from arguments or stdin',
    flags: RUN_FLAGS,
    examples: [
      'oy run "explain what src/main.ts does"',
      'oy run --mode edit --max-cost 0.50 "fix the failing test in test/parse.test.ts"',
      'git diff | oy run --mode plan --out review.md',
    ],
  },
  {
    name: 'chat',
    args: '',
    description: 'Interactive session: a conversation with the agent, approvals at the prompt',
    flags: CHAT_FLAGS,
    examples: ['oy chat', 'oy chat --mode plan', 'oy chat -c'],
  },
  {
    name: 'sessions',
    args: '[action] [session]',
    description:
      'List saved sessions for this workspace (id, date, first prompt, turns, cost); show <session> renders one',
    flags: [],
    examples: ['oy sessions', 'oy sessions show 1'],
  },
  {
    name: 'mcp',
    args: '[action]',
    description:
      'MCP servers: list (each server, its status and tools) or approve (this workspace .mcp.json)',
    flags: [],
    examples: ['oy mcp list', 'oy mcp approve'],
  },
  {
    name: 'help',
    args: '[command]',
    description: 'Show the help of oy or of one command',
    flags: [],
    examples: ['oy help audit'],
  },
];

/** `oy "fix the bug"`: words that are not a command are the prompt of `oy run`. */
export const SHORTHAND: CommandSpec = {
  name: '',
  args: '"<prompt>"',
  description: 'Shorthand for oy run "<prompt>"',
  flags: RUN_FLAGS,
  examples: ['oy "explain what src/main.ts does"'],
};

export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}
