import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildChildEnvironment } from '../../../src/agent/shell/child-environment.js';

/**
 * Variables that point at a credential or a root-granting daemon, or hold a password under a short
 * name, must not reach the model's commands. Each value is a run-time canary, and a control name
 * with the same value is kept, so the value alone does not give it away.
 */

const NAMES = ['NETRC', 'PGPASSFILE', 'DOCKER_HOST', 'DOCKER_CONFIG', 'DOCKER_CERT_PATH', 'CONTAINER_HOST', 'KRB5CCNAME', 'XAUTHORITY', 'DB_PWD', 'app_db_pwd']; // prettier-ignore

let cases = 0;
afterAll(() => console.log(`red team environment: ${cases} cases`));

describe('variables that point at credentials are scrubbed', () => {
  for (const name of NAMES) {
    it(`drops ${name}`, () => {
      cases += 1;
      const canary = `/tmp/canary-${randomBytes(8).toString('hex')}`;
      const scrubbed = buildChildEnvironment(
        { [name]: canary, TMPDIR: canary, LANG: 'C' },
        { allowedNames: [] },
      );
      expect(Object.values(scrubbed).filter((value) => value === canary)).toHaveLength(1);
      expect(scrubbed[name]).toBeUndefined();
      expect(scrubbed.TMPDIR).toBe(canary);
      expect(scrubbed.LANG).toBe('C');
    });
  }

  it('keeps a listed name the user allows', () => {
    cases += 1;
    expect(buildChildEnvironment({ DOCKER_HOST: 'tcp://x:2375' }, { allowedNames: ['DOCKER_HOST'] }).DOCKER_HOST).toBe('tcp://x:2375'); // prettier-ignore
  });
});
