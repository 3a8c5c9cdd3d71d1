import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBwrapArgs } from '../../../src/agent/shell/build-bwrap-args.js';
import {
  findHostSockets,
  findKeptLinks,
  findRuntimeDirs,
} from '../../../src/agent/shell/find-host-sockets.js';
import { findHiddenPaths } from '../../../src/agent/shell/hidden-paths.js';
import { planSandbox, probeSandbox } from '../../../src/agent/shell/sandbox.js';

const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-plan-ws-')));

function fakeBwrap(script: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'oy-fake-bwrap-'));
  writeFileSync(path.join(dir, 'bwrap'), `#!/bin/sh\n${script}\n`);
  chmodSync(path.join(dir, 'bwrap'), 0o755);
  return dir;
}

describe('probeSandbox', () => {
  it('says why bwrap is unavailable', async () => {
    expect(await probeSandbox({ PATH: '/nonexistent' }, 'linux')).toEqual({
      available: false,
      reason: 'bwrap not found on PATH',
    });
    expect((await probeSandbox({ PATH: '' }, 'darwin')).reason).toBe('bwrap runs on Linux only');
    const broken = fakeBwrap('echo "bwrap: setting up uid map: Permission denied" >&2; exit 1');
    expect((await probeSandbox({ PATH: broken }, 'linux')).reason).toBe(
      'bwrap: bwrap: setting up uid map: Permission denied',
    );
  });
});

describe('planSandbox', () => {
  it('off never sandboxes; auto falls back to none with the reason; on refuses', async () => {
    const env = { PATH: '/nonexistent', HOME: process.env.HOME };
    expect(await planSandbox('off', workspace, env, false)).toEqual({
      kind: 'none',
      reason: 'sandbox: off in the config',
    });
    expect(await planSandbox('auto', workspace, env, false)).toEqual({
      kind: 'none',
      reason: 'bwrap not found on PATH',
    });
    expect(await planSandbox('on', workspace, env, false)).toEqual({
      kind: 'unavailable',
      reason: 'sandbox: on but bwrap is unavailable: bwrap not found on PATH',
    });
  });

  it('plans bwrap with a working one: network off unless allowed', async () => {
    const bin = fakeBwrap('exit 0');
    const env = { PATH: bin, HOME: process.env.HOME };
    const plan = await planSandbox('auto', workspace, env, false);
    expect(plan).toMatchObject({ kind: 'bwrap', bwrapPath: path.join(bin, 'bwrap') });
    expect(plan.kind === 'bwrap' && plan.args).toContain('--unshare-net');
    const networked = await planSandbox('on', workspace, env, true);
    expect(networked.kind === 'bwrap' && networked.args).not.toContain('--unshare-net');
  });
});

describe('buildBwrapArgs', () => {
  it('binds / read-only, the workspace writable, a private /tmp, then hides credentials', () => {
    const args = buildBwrapArgs({
      workspace: '/work/ws',
      hidden: [
        { path: '/home/u/.ssh', isDirectory: true },
        { path: '/home/u/.netrc', isDirectory: false },
        { path: '/work', isDirectory: true },
      ],
      runtimeDirs: [],
      sockets: [],
      keptFiles: [],
      keptLinks: [],
      allowNetwork: false,
    });
    const text = args.join(' ');
    expect(text).toContain(
      '--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /work/ws /work/ws',
    );
    expect(text).toContain('--tmpfs /home/u/.ssh --ro-bind /dev/null /home/u/.netrc');
    // Hiding a folder that holds the workspace would hide the workspace.
    expect(text).not.toContain('--tmpfs /work ');
    expect(args).toEqual(
      expect.arrayContaining(['--unshare-net', '--unshare-pid', '--die-with-parent']),
    );
    expect(args.slice(-2)).toEqual(['--chdir', '/work/ws']);
  });
});

describe('findHiddenPaths', () => {
  it('finds the credential places that exist, by their real path', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'oy-hidden-home-'));
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'oy-hidden-target-'));
    mkdirSync(path.join(home, '.aws'));
    mkdirSync(path.join(home, '.config', 'oy'), { recursive: true });
    writeFileSync(path.join(home, '.netrc'), 'machine x');
    symlinkSync(elsewhere, path.join(home, '.ssh'));
    const hidden = findHiddenPaths({ HOME: home });
    const real = realpathSync(home);
    expect(hidden).toEqual(
      expect.arrayContaining([
        { path: path.join(real, '.aws'), isDirectory: true },
        { path: path.join(real, '.config', 'oy'), isDirectory: true },
        { path: path.join(real, '.netrc'), isDirectory: false },
        { path: realpathSync(elsewhere), isDirectory: true },
      ]),
    );
    expect(hidden.map((entry) => entry.path)).not.toContain(path.join(real, '.kube'));
  });
});

describe('findHostSockets', () => {
  it('keeps listening sockets with a path that are sockets on disk now', async () => {
    const { createServer } = await import('node:net');
    const dir = realpathSync(mkdtempSync('/var/tmp/oy-proc-net-unix-'));
    const socketPath = path.join(dir, 'listening.sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    writeFileSync(path.join(dir, 'plain-file'), '');
    const listing = [
      'Num       RefCount Protocol Flags    Type St Inode Path',
      `0000: 00000002 00000000 00010000 0001 01 1 ${socketPath}`,
      `0000: 00000002 00000000 00000000 0001 03 2 ${socketPath}`,
      `0000: 00000002 00000000 00010000 0001 01 3 ${path.join(dir, 'plain-file')}`,
      `0000: 00000002 00000000 00010000 0001 01 4 ${path.join(dir, 'gone.sock')}`,
      '0000: 00000002 00000000 00010000 0001 01 5 @/tmp/.X11-unix/X0',
      '0000: 00000003 00000000 00000000 0001 03 6',
    ].join('\n');
    expect(findHostSockets(listing)).toEqual([socketPath]);
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('findRuntimeDirs', () => {
  it('lists /run, the runtime folder by its real path, and nothing that is missing', () => {
    const runtime = mkdtempSync(path.join(tmpdir(), 'oy-runtime-'));
    const dirs = findRuntimeDirs({ XDG_RUNTIME_DIR: runtime });
    expect(dirs).toContain(realpathSync(runtime));
    expect(findRuntimeDirs({ XDG_RUNTIME_DIR: '/nonexistent/run' })).not.toContain(
      '/nonexistent/run',
    );
    expect(findRuntimeDirs({ XDG_RUNTIME_DIR: 'relative' })).not.toContain('relative');
  });
});

describe('buildBwrapArgs: runtime folders and sockets', () => {
  it('empties runtime folders before the workspace, covers sockets outside it only', () => {
    const args = buildBwrapArgs({
      workspace: '/run/user/1/ws',
      hidden: [{ path: '/run/user/1/keyring', isDirectory: true }],
      runtimeDirs: ['/run'],
      sockets: ['/var/lib/db/db.sock', '/run/docker.sock', '/run/user/1/ws/dev.sock'],
      keptFiles: ['/run/systemd/resolve/stub-resolv.conf'],
      keptLinks: [{ path: '/run/current-system', target: '/nix/store/abc-system' }],
      allowNetwork: true,
    });
    const text = args.join(' ');
    expect(text).toContain(
      '--tmpfs /run --ro-bind /run/systemd/resolve/stub-resolv.conf /run/systemd/resolve/stub-resolv.conf --symlink /nix/store/abc-system /run/current-system --bind /run/user/1/ws /run/user/1/ws',
    );
    expect(text).toContain('--ro-bind /dev/null /var/lib/db/db.sock');
    // Already gone with /run, or the workspace's own: no mount of their own.
    expect(text).not.toContain('docker.sock');
    expect(text).not.toContain('dev.sock');
    expect(text).not.toContain('keyring');
    expect(args).not.toContain('--unshare-net');
  });
});

describe('findKeptLinks', () => {
  it('keeps top-level links that lead out of the runtime folders, and no other', () => {
    const runtime = realpathSync(mkdtempSync('/var/tmp/oy-runtime-links-'));
    const outside = realpathSync(mkdtempSync('/var/tmp/oy-runtime-target-'));
    mkdirSync(path.join(runtime, 'bus-dir'));
    symlinkSync(outside, path.join(runtime, 'current-system'));
    symlinkSync(path.join(runtime, 'bus-dir'), path.join(runtime, 'inward'));
    symlinkSync('/nonexistent/target', path.join(runtime, 'dangling'));
    symlinkSync('bus-dir', path.join(runtime, 'relative'));
    expect(findKeptLinks([runtime])).toEqual([
      { path: path.join(runtime, 'current-system'), target: outside },
    ]);
  });
});
