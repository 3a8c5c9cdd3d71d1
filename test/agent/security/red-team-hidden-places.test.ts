import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listHiddenCandidates } from '../../../src/agent/shell/hidden-paths.js';

/**
 * Credential stores the sandbox must cover: Pulumi and Cloudflare tunnel credentials, the Hetzner
 * token, age keys, podman's registry logins and Terraform CLI tokens. That each listed place is
 * really unreadable from the sandbox is proved by sandbox-home-canaries.test.ts, which plants a
 * canary at every entry of the same list.
 */

const PLACES = ['.pulumi', '.cloudflared', '.config/hcloud', '.config/age', '.config/containers/auth.json', '.terraformrc']; // prettier-ignore

let cases = 0;
afterAll(() => console.log(`red team hidden places: ${cases} cases`));

describe('credential stores are on the hidden list', () => {
  const home = '/home/red-team';
  const hidden = new Set(listHiddenCandidates({ HOME: home }));
  for (const place of PLACES) {
    it(`hides ~/${place}`, () => {
      cases += 1;
      expect(hidden.has(path.join(home, place))).toBe(true);
    });
  }
  it('keeps an ordinary config folder visible (control)', () => {
    cases += 1;
    expect(hidden.has(path.join(home, '.config/git'))).toBe(false);
  });
});
