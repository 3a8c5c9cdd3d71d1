import { describe, expect, it } from 'vitest';
import { buildGitEnvironment } from '../../../src/shared/git/build-git-environment.js';

describe('buildGitEnvironment', () => {
  it('drops GIT_* variables, sets HOME from the options, and keeps git non-interactive', () => {
    const env = buildGitEnvironment(
      {
        PATH: '/bin',
        HOME: '/old',
        GIT_DIR: '/elsewhere',
        GIT_CONFIG_GLOBAL: '/x',
        EMPTY: undefined,
      },
      { homeDir: '/home/u' },
    );
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_PAGER: 'cat',
      LC_ALL: 'C',
    });
  });
});
