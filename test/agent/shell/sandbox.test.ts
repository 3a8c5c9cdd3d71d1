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
