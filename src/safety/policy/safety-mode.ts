import { UsageError } from '../../shared/errors.js';

/** How much the agent may do without asking: see the mode table in README.md "Safety modes". */
export type SafetyMode = 'plan' | 'ask' | 'edit' | 'auto';

export const SAFETY_MODES: readonly SafetyMode[] = ['plan', 'ask', 'edit', 'auto'];

/** The mode a run gets when `--mode` is not given. */
export const DEFAULT_SAFETY_MODE: SafetyMode = 'ask';

const MODE_ALIASES: Readonly<Record<string, SafetyMode>> = {
  plan: 'plan',
  read: 'plan',
  'read-only': 'plan',
  ask: 'ask',
  default: 'ask',
  edit: 'edit',
  'accept-edits': 'edit',
  auto: 'auto',
  'auto-approve': 'auto',
  yolo: 'auto',
};

/** The mode a `--mode` value names, aliases included; anything else is a UsageError listing the choices. */
export function parseSafetyMode(text: string): SafetyMode {
  const key = text.trim().toLowerCase();
  const mode = Object.hasOwn(MODE_ALIASES, key) ? MODE_ALIASES[key] : undefined;
  if (mode === undefined) {
    throw new UsageError(
      `unknown --mode ${JSON.stringify(text)}: choose ${SAFETY_MODES.join(', ')}`,
      {
        hint: 'aliases: read and read-only (plan), default (ask), accept-edits (edit), auto-approve and yolo (auto)',
      },
    );
  }
  return mode;
}
