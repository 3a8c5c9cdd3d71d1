/** One line of `oy doctor`: `fail` only for required checks, `warn` for what is missing but optional. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'info';

export interface DoctorCheck {
  /** Stable key for `--json` consumers: `node`, `config`, `model`, `sandbox`... */
  id: string;
  status: CheckStatus;
  /** One line for a person; never a secret. */
  detail: string;
  /** What to do about a warn or fail. */
  hint?: string;
  /** Facts for `--json`. */
  data?: Record<string, unknown>;
}

/** Doctor passes when no required check failed. */
export function hasPassed(checks: readonly DoctorCheck[]): boolean {
  return checks.every((check) => check.status !== 'fail');
}
