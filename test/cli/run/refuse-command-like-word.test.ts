import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/flags/command-table.js';
import { refuseCommandLikeWord } from '../../../src/cli/run/refuse-command-like-word.js';
import { UsageError } from '../../../src/shared/errors.js';

/** `oy "<prompt>"`: any words run as a prompt, except a lone near-typo of a command. */
const names = COMMANDS.map((command) => command.name);

function refusal(words: string[]): UsageError | undefined {
  try {
    refuseCommandLikeWord(words, names);
    return undefined;
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}

describe('refuseCommandLikeWord', () => {
  it.each([
    [['audti'], 'audit'],
    [['chta'], 'chat'],
    [['docter'], 'doctor'],
    [['modle'], 'model'],
    [['sessoins'], 'sessions'],
    [['sesions'], 'sessions'],
    [['Audit'], 'audit'],
    [['rnu'], 'run'],
  ])('refuses %j, suggesting oy %s', (words, command) => {
    const error = refusal(words);
    expect(error?.message).toBe(`unknown command "${words[0]}"`);
    expect(error?.hint).toBe(
      `did you mean oy ${command}? For a one-word prompt, use oy run ${words[0]}`,
    );
  });

  it.each([
    [['hello']],
    [['hi']],
    [['refactor']],
    [['explain']],
    [['hello world']],
    [['fix', 'the', 'bug']],
    [['x']],
    [['why?']],
  ])('runs %j as a prompt', (words) => {
    expect(refusal(words)).toBeUndefined();
  });
});
