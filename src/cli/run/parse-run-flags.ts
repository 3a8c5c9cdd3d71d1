import { DEFAULT_MAX_MODEL_CALLS } from '../../agent/loop/loop-options.js';
import {
  DEFAULT_SAFETY_MODE,
  parseSafetyMode,
  type SafetyMode,
} from '../../safety/policy/safety-mode.js';
import { UsageError } from '../../shared/errors.js';
import type { GlobalOptions } from '../global-options.js';
import { parseMaxCost, parseText, parseWholeNumber } from '../parse-flags.js';

/** Flags `oy run` (and the `oy "prompt"` shorthand) accept, as cac hands them over. */
export interface RunFlags extends GlobalOptions {
  mode?: unknown;
  maxTurns?: unknown;
  maxCost?: unknown;
  out?: unknown;
  continue?: boolean;
  resume?: unknown;
  /** cac turns `--no-session` into `session: false`. */
  session?: boolean;
}

export interface RunSettings {
  mode: SafetyMode;
  maxTurns: number;
  maxCostUsd: number | null;
  out: string | null;
  /** `latest` for --continue, the selector for --resume, null for a new session. */
  resume: string | null;
  isSessionSaved: boolean;
}

/** Most model calls a run may be allowed; far past any sensible task. */
const MAX_TURNS_LIMIT = 10_000;

/** Checks every flag before anything is loaded or sent. */
export function parseRunFlags(flags: RunFlags): RunSettings {
  const mode =
    flags.mode === undefined
      ? DEFAULT_SAFETY_MODE
      : parseSafetyMode(parseText('--mode', flags.mode) ?? '');
  // mri reads `--resume 2` as the number 2.
  const resumeText = parseText(
    '--resume',
    typeof flags.resume === 'number' ? String(flags.resume) : flags.resume,
  );
  if (flags.continue && resumeText !== undefined)
    throw new UsageError('--continue and --resume cannot be used together', {
      hint: '--continue picks the latest session; --resume <id|number|name> picks one',
    });
  const isSessionSaved = flags.session !== false;
  if (!isSessionSaved && (flags.continue || resumeText !== undefined))
    throw new UsageError('--no-session cannot be used with --continue or --resume', {
      hint: 'a continued session is saved as it goes; drop --no-session, or start a new run without --continue',
    });
  return {
    mode,
    maxTurns:
      parseWholeNumber('--max-turns', flags.maxTurns, 1, MAX_TURNS_LIMIT) ??
      DEFAULT_MAX_MODEL_CALLS,
    maxCostUsd: parseMaxCost(flags.maxCost),
    out: parseText('--out', flags.out) ?? null,
    resume: flags.continue ? 'latest' : (resumeText ?? null),
    isSessionSaved,
  };
}
