import { describe, expect, it } from 'vitest';
import { buildGitEnvironment } from '../../../src/shared/git/build-git-environment.js';

describe('buildGitEnvironment', () => {
  it('drops GIT_* and askpass variables and sets HOME from the options', () => {
    const env = buildGitEnvironment(
      {
        PATH: '/bin',
        HOME: '/old',
        GIT_DIR: '/elsewhere',
        GIT_CONFIG_GLOBAL: '/x',
        SSH_ASKPASS: '/bin/evil',
        EMPTY: undefined,
      },
      { homeDir: '/home/u' },
    );
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      LC_ALL: 'C',
    });
  });
});
