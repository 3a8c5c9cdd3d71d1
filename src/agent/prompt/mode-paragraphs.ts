import { ALL_KINDS, describeKinds } from '../../safety/policy/mode-table.js';
import type { Category } from '../../safety/policy/tool-action.js';
import type { SafetyMode } from '../../safety/policy/safety-mode.js';

/** What each mode adds to the table's facts: how to work within it. */
const MODE_ADVICE: Readonly<Record<SafetyMode, string>> = {
  plan: 'Investigate, then answer with findings and a concrete plan the user can approve.',
  ask: 'When a call is refused, do not retry it: say what you would have done.',
  edit: 'Keep edits small and focused.',
  auto:
    'Deny and ask rules still apply. Act carefully: prefer reversible steps, and never run destructive ' +
    'commands (rm -rf, force pushes, dropping data) unless the task asks for it.',
};

/** Kinds of call the model can make without MCP servers: the paragraph does not mention tools it lacks. */
const KINDS_WITHOUT_MCP: readonly Category[] = ALL_KINDS.filter((kind) => kind !== 'mcp');

/**
 * One short paragraph per safety mode, its facts derived from the mode table (README.md "Safety modes");
 * MCP tools are mentioned only when some are offered.
 */
export function renderModeParagraph(mode: SafetyMode, hasMcpTools = false): string {
  const kinds = hasMcpTools ? ALL_KINDS : KINDS_WITHOUT_MCP;
  const sentences = [`Mode: ${mode}.`];
  sentences.push(`You may do these without asking: ${describeKinds(mode, 'allow', kinds)}.`);
  const asked = describeKinds(mode, 'ask', kinds);
  if (asked !== '')
    sentences.push(
      `These need the user's approval: ${asked} (in a non-interactive run they are refused, and the result says how the user can allow them).`,
    );
  const refused = describeKinds(mode, 'deny', kinds);
  if (refused !== '') sentences.push(`These are refused in this mode: ${refused}.`);
  sentences.push(MODE_ADVICE[mode]);
  return sentences.join(' ');
}
