import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfigFiles } from '../../../src/cli/doctor/check-config-files.js';
import { checkModel } from '../../../src/cli/doctor/check-model.js';
import { checkNodeVersion } from '../../../src/cli/doctor/check-node-version.js';
import { checkSandbox } from '../../../src/cli/doctor/check-sandbox.js';
import { describeSafetyPolicy } from '../../../src/cli/doctor/describe-safety-policy.js';
import { hasPassed, type DoctorCheck } from '../../../src/cli/doctor/doctor-check.js';
import { findOnPath } from '../../../src/shared/find-on-path.js';
import { renderDoctorReport } from '../../../src/cli/doctor/render-doctor-report.js';
import { createColors } from '../../../src/cli/terminal.js';

describe('checkNodeVersion', () => {
  it.each([
    ['20.19.0', 'ok'],
    ['20.20.2', 'ok'],
    ['22.1.0', 'ok'],
    ['20.18.3', 'fail'],
    ['18.20.0', 'fail'],
  ])('Node %s is %s', (version, status) => {
    expect(checkNodeVersion(version).status).toBe(status);
  });
});

describe('findOnPath', () => {
  it('finds executable files only, in PATH order', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'oy-path-'));
    const [a, b, c] = ['a', 'b', 'c'].map((name) => path.join(root, name));
    for (const dir of [a, b, c]) mkdirSync(dir!);
    writeFileSync(path.join(a!, 'tool'), 'not executable');
    mkdirSync(path.join(b!, 'tool'));
    writeFileSync(path.join(c!, 'tool'), '#!/bin/sh\n');
    chmodSync(path.join(c!, 'tool'), 0o755);
    expect(findOnPath('tool', [a, b, c].join(path.delimiter))).toBe(path.join(c!, 'tool'));
    expect(findOnPath('tool', [a, b].join(path.delimiter))).toBeNull();
    expect(findOnPath('tool', undefined)).toBeNull();
  });
});

describe('checkSandbox', () => {
  it('is unavailable off Linux without running anything', async () => {
    expect(await checkSandbox({ PATH: '' }, 'darwin')).toMatchObject({
      status: 'warn',
      detail: 'unavailable (bwrap runs on Linux only)',
    });
  });

  it('is unavailable when bwrap is not on PATH', async () => {
    expect((await checkSandbox({ PATH: '/nonexistent' }, 'linux')).detail).toBe(
      'unavailable (bwrap not found on PATH)',
    );
  });

  it('reports why a bwrap that does not work is unavailable', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'oy-bwrap-'));
    writeFileSync(
      path.join(dir, 'bwrap'),
      '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
    );
    chmodSync(path.join(dir, 'bwrap'), 0o755);
    const check = await checkSandbox({ PATH: dir }, 'linux');
    expect(check.detail).toBe('unavailable (bwrap: bwrap: No permissions to create new namespace)');
    expect(check.status).toBe('warn');
  });
});

describe('checkModel', () => {
  it('is informational with no model', () => {
    const result = checkModel({}, '/c.json', {});
    expect(result.ref).toBeNull();
    expect(result.checks).toEqual([
      expect.objectContaining({ id: 'model', status: 'info', detail: 'none: audits run offline' }),
    ]);
  });

  it('fails on a missing key and passes with it', () => {
    const missing = checkModel({ config: 'gpt-4o' }, '/c.json', {});
    expect(missing.checks[1]).toMatchObject({ id: 'model-credentials', status: 'fail' });
    expect(missing.checks[1]?.detail).toContain('OPENAI_API_KEY');
    const present = checkModel({ config: 'gpt-4o' }, '/c.json', { OPENAI_API_KEY: 'sk-secret' });
    expect(present.checks[0]?.detail).toBe('openai::gpt-4o (provider openai, from /c.json)');
    expect(present.checks[1]).toMatchObject({
      status: 'ok',
      detail: 'openai::gpt-4o: present (OPENAI_API_KEY)',
    });
    expect(JSON.stringify(present)).not.toContain('sk-secret');
  });

  it('fails Bedrock without a region and only warns without visible credentials', () => {
    expect(
      checkModel({ env: 'bedrock::m' }, '/c', { HOME: '/nonexistent' }).checks[1]?.status,
    ).toBe('fail');
    const noCredentials = checkModel({ env: 'bedrock::m' }, '/c', {
      AWS_REGION: 'us-east-1',
      HOME: '/nonexistent',
    });
    expect(noCredentials.checks[1]?.status).toBe('warn');
    const withProfile = checkModel({ env: 'bedrock::m' }, '/c', {
      AWS_REGION: 'us-east-1',
      AWS_PROFILE: 'dev',
      HOME: '/nonexistent',
    });
    expect(withProfile.checks[1]?.status).toBe('ok');
  });

  it('needs no key for a local server', () => {
    expect(checkModel({ flag: 'local-8080::m' }, '/c', {}).checks[1]).toMatchObject({
      status: 'ok',
      detail: 'local-8080::m: no key needed',
    });
  });
});

describe('describeSafetyPolicy', () => {
  it('counts permission rules, ignoring a project file’s allow rules', () => {
    const check = describeSafetyPolicy(
      { permissions: { allow: ['Bash(npm test)'], deny: ['Read(secrets/**)'] } },
      { permissions: { allow: ['Bash(*)'], ask: ['WebFetch(domain:x)'] } },
    );
    expect(check.detail).toMatch(
      /^default mode ask: read allowed; write, bash, webfetch, mcp ask \(denied when not interactive\)/,
    );
    expect(check.data).toMatchObject({ rules: { allow: 1, ask: 1, deny: 1 } });
  });
});

describe('renderDoctorReport', () => {
  const checks: DoctorCheck[] = [
    { id: 'node', status: 'ok', detail: 'Node 20.20.2' },
    { id: 'model-credentials', status: 'fail', detail: 'x needs KEY', hint: 'export KEY' },
    { id: 'sandbox', status: 'warn', detail: 'unavailable (why)', hint: 'install it' },
  ];

  it('aligns lines, puts hints under failures, and closes with a verdict', () => {
    expect(renderDoctorReport(checks, createColors(false))).toMatchSnapshot();
    expect(hasPassed(checks)).toBe(false);
    expect(hasPassed(checks.filter((check) => check.status !== 'fail'))).toBe(true);
  });
});

describe('checkConfigFiles', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'oy-doctor-config-'));
  const write = (name: string, value: unknown) => {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(value), { mode: 0o600 });
    return file;
  };

  it('fails the config check with every malformed rule, by path, and does not throw', async () => {
    const file = write('shapes.json', {
      permissions: { allow: ['Bash(npm test'], deny: ['Shell'] },
    });
    const { checks, userFile } = await checkConfigFiles(file, null);
    expect(userFile).toBeUndefined();
    expect(checks[0]).toMatchObject({ id: 'config', status: 'fail' });
    expect(checks[0]?.detail).toContain(
      'permissions.allow.0: invalid permission rule "Bash(npm test"',
    );
    expect(checks[0]?.detail).toContain('permissions.deny.0: invalid permission rule "Shell"');
  });

  it("fails it for rules of the right shape that the policy's parser refuses", async () => {
    const file = write('parse.json', {
      permissions: { deny: ['Bash(ls | rm -rf x)', 'Read(../up)'] },
    });
    const [check] = (await checkConfigFiles(file, null)).checks;
    expect(check).toMatchObject({
      status: 'fail',
      hint: expect.stringContaining('Permission rules'),
    });
    expect(check?.detail).toContain('2 invalid permission rule(s)');
    expect(check?.detail).toContain(
      'permissions.deny.0: invalid permission rule "Bash(ls | rm -rf x)"',
    );
    expect(check?.detail).toContain('permissions.deny.1: invalid permission rule "Read(../up)"');
  });

  it('control: well-formed rules pass', async () => {
    const file = write('good.json', {
      permissions: { allow: ['Bash(npm test)'], deny: ['Read(secrets/**)'] },
    });
    const [check] = (await checkConfigFiles(file, null)).checks;
    expect(check?.status).toBe('ok');
  });
});
