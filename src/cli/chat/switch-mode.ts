import { SAFETY_MODES, type SafetyMode } from '../../safety/policy/safety-mode.js';
import { parseSafetyMode } from '../../safety/policy/safety-mode.js';
import { UsageError } from '../../shared/errors.js';
import type { LineEditor } from './line-editor/create-line-editor.js';

/** Asked before auto mode: it runs commands and changes files without a question. */
export const AUTO_MODE_QUESTION =
  'auto mode runs commands and changes files without asking (deny rules still hold). Switch to auto? [y/N]: ';

/**
 * /mode <name>: the new mode, or the current one when the user did not confirm auto. An alias is
 * said by its real name (`yolo` is auto), and auto is only ever reached through a yes.
 */
export async function switchMode(
  current: SafetyMode,
  argument: string,
  editor: LineEditor,
  say: (text: string) => void,
): Promise<SafetyMode> {
  let mode: SafetyMode;
  try {
    mode = parseSafetyMode(argument);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(`error: unknown mode ${JSON.stringify(argument)}: choose ${SAFETY_MODES.join(', ')}`);
    return current;
  }
  const alias = argument.trim().toLowerCase() === mode ? '' : ` (${argument.trim()} is ${mode})`;
  if (mode === current) {
    say(`mode ${mode} already${alias}`);
    return current;
  }
  if (mode === 'auto') {
    if (alias !== '') say(`${argument.trim()} is auto mode`);
    const answer = (await editor.ask(AUTO_MODE_QUESTION))?.trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') {
      say(`mode stays ${current}`);
      return current;
    }
  }
  say(`mode ${mode} for the next turns${mode === 'auto' ? '' : alias}`);
  return mode;
}
