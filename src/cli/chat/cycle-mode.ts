import type { SafetyMode } from '../../safety/policy/safety-mode.js';
import type { LineEditor } from './line-editor/create-line-editor.js';
import { AUTO_MODE_QUESTION } from './switch-mode.js';

/** Shift+Tab's order: from the most careful up; auto only through a yes, then back to plan. */
const MODE_CYCLE: readonly SafetyMode[] = ['plan', 'ask', 'edit', 'auto'];

/**
 * Shift+Tab at the prompt: the next mode in plan → ask → edit → auto → plan. Auto is asked about
 * first, as `/mode auto` asks; without a yes the cycle goes on to plan, so Shift+Tab never sticks.
 */
export async function cycleMode(
  current: SafetyMode,
  editor: LineEditor,
  say: (text: string) => void,
): Promise<SafetyMode> {
  let next = following(current);
  if (next === 'auto') {
    const answer = (await editor.ask(AUTO_MODE_QUESTION))?.trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') next = following(next);
  }
  say(`mode ${next} for the next turns (Shift+Tab: ${following(next)} next)`);
  return next;
}

function following(mode: SafetyMode): SafetyMode {
  return MODE_CYCLE[(MODE_CYCLE.indexOf(mode) + 1) % MODE_CYCLE.length]!;
}
