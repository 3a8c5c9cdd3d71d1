import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSandboxScope } from '../../../src/cli/doctor/check-sandbox-scope.js';

function homeWithCredentials(): string {
  const home = realpathSync(mkdtempSync('/var/tmp/oy-doctor-home-'));
  mkdirSync(path.join(home, '.ssh'));
  writeFileSync(path.join(home, '.netrc'), 'machine x');
  writeFileSync(path.join(home, '.bashrc'), 'export A=1');
  return home;
}

describe('checkSandboxScope', () => {
  it('counts the credential paths hidden in this HOME and says the network is off', () => {
    const home = homeWithCredentials();
    const runtime = realpathSync(mkdtempSync('/var/tmp/oy-doctor-run-'));
    const [hides, network] = checkSandboxScope({
      env: { HOME: home, XDG_RUNTIME_DIR: runtime },
      workspace: realpathSync(mkdtempSync('/var/tmp/oy-doctor-ws-')),
      commands: 'sandboxed',
      hasNetwork: false,
    });
    expect(hides?.detail).toMatch(
      /^home: 3 credential paths hidden \(of \d+ known\); host sockets: hidden \(/,
    );
    expect(hides?.detail).toContain(runtime);
    expect(hides?.data).toMatchObject({
      isSandboxed: true,
      hiddenPaths: expect.arrayContaining([path.join(home, '.ssh'), path.join(home, '.netrc')]),
    });
    expect(network).toMatchObject({
      id: 'command-network',
      detail: 'off (agent.network): commands reach no network, loopback included',
      data: { hasNetwork: false },
    });
  });

  it('says when agent.network turns the network on', () => {
    const [, network] = checkSandboxScope({
      env: { HOME: homeWithCredentials() },
      workspace: null,
      commands: 'sandboxed',
      hasNetwork: true,
    });
    expect(network?.detail).toBe(
      'on (agent.network: true): commands reach the network and loopback',
    );
  });

  it('hides nothing when commands run unsandboxed, and says so', () => {
    const checks = checkSandboxScope({
      env: {},
      workspace: null,
      commands: 'unsandboxed',
      hasNetwork: false,
    });
    expect(checks[0]?.detail).toBe(
      'nothing: shell commands run unsandboxed, with your full privileges',
    );
    expect(checks[1]?.data).toMatchObject({ hasNetwork: true });
    const refused = checkSandboxScope({
      env: {},
      workspace: null,
      commands: 'refused',
      hasNetwork: false,
    });
    expect(refused).toHaveLength(1);
  });
});
