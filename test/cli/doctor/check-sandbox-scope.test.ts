import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSandboxScope } from '../../../src/cli/doctor/check-sandbox-scope.js';

function homeWithCredentials(): string {
  const home = realpathSync(mkdtempSync('/var/tmp/oy-doctor-home-'));
  mkdirSync(path.join(home, '.ssh'));
  writeFileSync(path.join(home, '.netrc'), 'machine x');
  writeFileSync(path.join(home, '.bashrc'), 'export A=1');
  mkdirSync(path.join(home, '.nvm'));
  mkdirSync(path.join(home, 'tools'));
  return home;
}

describe('checkSandboxScope', () => {
  it('lists what the empty home shows, the workspace rules, the host sockets and the network', () => {
    const home = homeWithCredentials();
    const runtime = realpathSync(mkdtempSync('/var/tmp/oy-doctor-run-'));
    const workspace = realpathSync(mkdtempSync('/var/tmp/oy-doctor-ws-'));
    mkdirSync(path.join(workspace, '.git'));
    writeFileSync(path.join(workspace, '.env'), 'A=1');
    const [homeCheck, workspaceCheck, hides, network] = checkSandboxScope({
      env: { HOME: home, XDG_RUNTIME_DIR: runtime, PATH: '/usr/bin' },
      workspace,
      commands: 'sandboxed',
      hasNetwork: false,
      homePaths: ['~/tools'],
    });
    expect(homeCheck).toMatchObject({ id: 'sandbox-home', status: 'ok' });
    expect(homeCheck?.detail).toMatch(
      // Toolchains of the login's own home (an absolute path: this HOME is another folder) may come first.
      /^home: empty and thrown away after each command; shown read-only: (\/[^ ,]+, )*~\/\.nvm, ~\/tools \(/,
    );
    expect(homeCheck?.detail).toMatch(/; \d+ credential paths hidden inside \(of \d+ known\)$/);
    const data = homeCheck?.data as { visible: string[]; hiddenPaths: string[] };
    // What this test's home holds; the login's own home may add its own places.
    expect(data.visible.filter((place) => place.startsWith(`${home}/`))).toEqual([
      path.join(home, '.nvm'),
      path.join(home, 'tools'),
    ]);
    expect(data.hiddenPaths.filter((place) => place.startsWith(`${home}/`))).toHaveLength(3);
    expect(data.hiddenPaths).toEqual(
      expect.arrayContaining([path.join(home, '.ssh'), path.join(home, '.netrc')]),
    );
    expect(workspaceCheck?.detail).toMatch(
      /^workspace: writable, except the control files of 1 git repository \(read-only\); 1 secret-bearing file unreadable/,
    );
    expect(hides?.detail).toContain(runtime);
    expect(network).toMatchObject({
      id: 'command-network',
      detail: 'off (agent.network): commands reach no network, loopback included',
      data: { hasNetwork: false },
    });
  });

  it('warns when the workspace is the home folder', () => {
    const home = homeWithCredentials();
    const [homeCheck] = checkSandboxScope({
      env: { HOME: home },
      workspace: home,
      commands: 'sandboxed',
      hasNetwork: false,
    });
    expect(homeCheck).toMatchObject({ id: 'sandbox-home', status: 'warn' });
    expect(homeCheck?.detail).toMatch(/the workspace is \(or holds\) your home folder/);
  });

  it('says when agent.network turns the network on', () => {
    const checks = checkSandboxScope({
      env: { HOME: homeWithCredentials() },
      workspace: null,
      commands: 'sandboxed',
      hasNetwork: true,
    });
    expect(checks.find((check) => check.id === 'command-network')?.detail).toBe(
      'on (agent.network: true): commands reach the network and loopback',
    );
  });

  it('names hooks marked "sandbox": false, and only those', () => {
    const checks = checkSandboxScope({
      env: { HOME: homeWithCredentials() },
      workspace: null,
      commands: 'sandboxed',
      hasNetwork: false,
      hooks: {
        Stop: [{ command: 'npm test' }, { command: 'notify-send done', sandbox: false }],
        PreToolUse: [{ command: 'check.sh', sandbox: true }],
      },
    });
    const hooks = checks.find((check) => check.id === 'hooks-unsandboxed');
    expect(hooks).toMatchObject({ status: 'warn', data: { hooks: ['Stop "notify-send done"'] } });
  });

  it('hides nothing when commands run unsandboxed, and says so', () => {
    const checks = checkSandboxScope({
      env: {},
      workspace: null,
      commands: 'unsandboxed',
      hasNetwork: false,
    });
    expect(checks[0]?.detail).toBe(
      'nothing: shell commands, hooks and project MCP servers run unsandboxed, with your full privileges',
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
