import { SAFETY_MODES } from '../../../safety/policy/safety-mode.js';
import type { Completion } from '../attach/complete-mention.js';
import { parseSlashCommand, SLASH_COMMANDS, type SlashCommandName } from '../slash-commands.js';
import { completeWord } from './complete-word.js';

/** Where the arguments some commands take come from (read when Tab is pressed, so they are current). */
export interface SlashArgumentSources {
  /** Model ids the catalogue knows, for /model. */
  modelIds(): readonly string[];
  /** This workspace's saved session ids and names, for /load. */
  sessionKeys(): Promise<readonly string[]>;
}

const SWITCH_WORDS = ['on', 'off'];

/**
 * Tab in a slash command: the command's name (`/mo` lists /mode and /model), then its argument (a
 * mode, a model id, a session id or name, on/off). Undefined when the input is not a command line.
 */
export function createSlashCompleter(
  sources: SlashArgumentSources,
): (text: string, cursor: number) => Promise<Completion | undefined> {
  return async (text, cursor) => {
    const before = text.slice(0, cursor);
    if (!before.startsWith('/') || before.includes('\n')) return undefined;
    const space = before.search(/\s/u);
    if (space === -1) {
      const names = SLASH_COMMANDS.map((spec) => spec.name);
      const completion = completeWord(before.slice(1).toLowerCase(), names);
      const only = completion.match;
      if (only === undefined)
        return { ...completion, candidates: completion.candidates.map((name) => `/${name}`) };
      const takesArgument = SLASH_COMMANDS.find((spec) => spec.name === only)?.argument;
      return { insert: completion.insert + (takesArgument ? ' ' : ''), candidates: [] };
    }
    const parsed = parseSlashCommand(before.slice(0, space));
    const typed = before.slice(space).trimStart();
    // A free-text argument (/ask) is left to the other completers: an @ mention completes there.
    const words = parsed?.kind === 'command' ? await argumentWords(parsed.name, sources) : [];
    if (words === undefined) return undefined;
    if (/\s/u.test(typed)) return { insert: '', candidates: [] };
    const completion = completeWord(typed, words);
    return { insert: completion.insert, candidates: completion.candidates };
  };
}

/** The words a command's argument is one of; undefined for free text. */
async function argumentWords(
  name: SlashCommandName,
  sources: SlashArgumentSources,
): Promise<readonly string[] | undefined> {
  switch (name) {
    case 'mode':
      return SAFETY_MODES;
    case 'model':
      return sources.modelIds();
    case 'load':
      return sources.sessionKeys();
    case 'thinking':
      return SWITCH_WORDS;
    case 'ask':
      return undefined;
    default:
      return [];
  }
}
