import { DEFAULT_MAX_MODEL_CALLS } from '../../agent/defaults.js';
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
  replay?: unknown;
}

export interface RunSettings {
  mode: SafetyMode;
  maxTurns: number;
  maxCostUsd: number | null;
  out: string | null;
  /** `latest` for --continue, the selector for --resume, null for a new session. */
  resume: string | null;
  isSessionSaved: boolean;
  /** The session `--replay` names, or null. */
  replay: string | null;
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
  const replay = parseText(
    '--replay',
    typeof flags.replay === 'number' ? String(flags.replay) : flags.replay,
  );
  if (replay !== undefined) refuseWithReplay(flags, resumeText !== undefined);
  return {
    mode,
    maxTurns:
      parseWholeNumber('--max-turns', flags.maxTurns, 1, MAX_TURNS_LIMIT) ??
      DEFAULT_MAX_MODEL_CALLS,
    maxCostUsd: parseMaxCost(flags.maxCost),
    out: parseText('--out', flags.out) ?? null,
    resume: flags.continue ? 'latest' : (resumeText ?? null),
    // A replay saves nothing: it reproduces a run, and must not write into the session it reads.
    isSessionSaved: isSessionSaved && replay === undefined,
    replay: replay ?? null,
  };
}

/** A replay answers with the recorded model, from the recorded session, into no session. */
function refuseWithReplay(flags: RunFlags, isResuming: boolean): void {
  if (flags.continue || isResuming)
    throw new UsageError('--replay cannot be used with --continue or --resume', {
      hint: '--replay runs a saved session again without changing it; --resume continues it',
    });
  if (flags.model !== undefined)
    throw new UsageError('--replay cannot be used with --model', {
      hint: 'a replay answers as the recorded model, from its recorded answers',
    });
}
