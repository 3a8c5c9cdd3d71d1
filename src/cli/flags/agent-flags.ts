import { DEFAULT_MAX_MODEL_CALLS } from '../../agent/defaults.js';
import { DEFAULT_SAFETY_MODE, SAFETY_MODES } from '../../safety/policy/safety-mode.js';
import type { FlagSpec } from './flag-spec.js';

/** Most model calls a run may be allowed; far past any sensible task. */
const MAX_TURNS_LIMIT = 10_000;
/** Far past any real run's cost; a typo like `5000000` is refused rather than trusted. */
const MAX_COST_USD = 1_000_000;

/** Other words `--mode` accepts, as `parseSafetyMode` reads them. */
const MODE_ALIASES = {
  read: 'plan',
  'read-only': 'plan',
  default: 'ask',
  'accept-edits': 'edit',
  'auto-approve': 'auto',
  yolo: 'auto',
} as const;

const MODE: FlagSpec = {
  name: 'mode',
  kind: 'choice',
  placeholder: '<mode>',
  example: '--mode plan',
  choices: SAFETY_MODES,
  aliases: MODE_ALIASES,
  help: 'Safety mode: plan, ask, edit or auto',
  defaultText: DEFAULT_SAFETY_MODE,
};

const CONTINUE: FlagSpec = {
  name: 'continue',
  short: 'c',
  kind: 'switch',
  help: 'Continue the latest session of this workspace',
};

const RESUME: FlagSpec = {
  name: 'resume',
  kind: 'text',
  placeholder: '<session>',
  example: '--resume 2',
  help: 'Continue a saved session: id, number from oy sessions, or name',
};

/** The flags of `oy run`, also accepted by the `oy "prompt"` shorthand. */
export const RUN_FLAGS: readonly FlagSpec[] = [
  { ...MODE, help: 'Safety mode: plan, ask, edit or auto (asks nobody can answer are refused)' },
  {
    name: 'max-turns',
    kind: 'integer',
    placeholder: '<n>',
    example: '--max-turns 20',
    bounds: { min: 1, max: MAX_TURNS_LIMIT },
    help: 'Model calls before the run stops and summarises',
    defaultText: String(DEFAULT_MAX_MODEL_CALLS),
  },
  {
    name: 'max-cost',
    kind: 'decimal',
    placeholder: '<usd>',
    example: '--max-cost 0.50',
    noun: 'an amount of US dollars',
    bounds: { min: 0, max: MAX_COST_USD },
    exclusiveMin: true,
    help: 'Stop and summarise once this run has cost this many US dollars',
  },
  {
    name: 'out',
    kind: 'text',
    placeholder: '<file>',
    example: '--out answer.md',
    help: 'Also write the final answer to this file inside the workspace',
  },
  CONTINUE,
  RESUME,
  { name: 'no-session', kind: 'switch', help: 'Do not save this run as a session' },
  {
    name: 'replay',
    kind: 'text',
    placeholder: '<session>',
    example: '--replay 1',
    help: 'Run a saved session again from its recorded answers (no model, no saving)',
  },
];

export const CHAT_FLAGS: readonly FlagSpec[] = [
  { ...MODE, help: 'Safety mode: plan, ask, edit or auto; /mode changes it' },
  CONTINUE,
  RESUME,
];
