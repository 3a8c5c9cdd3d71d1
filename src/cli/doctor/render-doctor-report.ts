import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';
import { hasPassed, type CheckStatus, type DoctorCheck } from './doctor-check.js';

const LABEL_WIDTH = 18;
/** The status word (4) and two spaces. */
const STATUS_WIDTH = 6;

/** Doctor's checks as aligned lines with a closing verdict; details quote paths and config, so they are shown inertly. */
export function renderDoctorReport(checks: readonly DoctorCheck[], colors: Colors): string {
  const paint: Record<CheckStatus, (text: string) => string> = {
    ok: colors.green,
    warn: colors.yellow,
    fail: colors.red,
    info: colors.dim,
  };
  const lines = checks.map((check) => {
    const status = paint[check.status](check.status.padEnd(4));
    const indent = ' '.repeat(STATUS_WIDTH + LABEL_WIDTH);
    // A detail of several lines (every problem of a config file) keeps its lines under the first.
    const detail = neutralizeControl(check.detail).replaceAll('\n', `\n${indent}`);
    const line = `${status}  ${check.id.padEnd(LABEL_WIDTH)}${detail}`;
    if (!check.hint || check.status === 'ok') return line;
    return `${line}\n${indent}${colors.dim(`hint: ${neutralizeControl(check.hint)}`)}`;
  });
  const failed = checks.filter((check) => check.status === 'fail').length;
  lines.push(
    '',
    hasPassed(checks)
      ? colors.green('all required checks passed')
      : colors.red(`${failed} required check${failed === 1 ? '' : 's'} failed`),
  );
  return lines.join('\n') + '\n';
}
