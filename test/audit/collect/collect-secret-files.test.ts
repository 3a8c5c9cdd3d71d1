import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/safety/policy/decide.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import {
  candidatePaths,
  collect,
  git,
  gitInit,
  statusOf,
  useTempDirs,
  writeTree,
} from './tree-helpers.js';

const tempDir = useTempDirs();

// The files the shared list gained: the audit never opens them (a committed one is reported) and
// the agent asks before reading one. Values are generated so nothing here is a real secret.
const value = `canary-${Math.random().toString(36).slice(2)}`;
const ADDED: Record<string, string> = {
  '.envrc': `export API_TOKEN=${value}\n`,
  '.pgpass': `db:5432:app:app:${value}\n`,
  'infra/terraform.tfvars': `db_password = "${value}"\n`,
  'infra/prod.tfvars.json': `{"db_password": "${value}"}\n`,
  'web/.htpasswd': `admin:${value}\n`,
  '.git-credentials': `https://me:${value}@example.com\n`,
  'vpn/office.ovpn': `<key>${value}</key>\n`,
  'home/.docker/config.json': `{"auths": {"x": {"auth": "${value}"}}}\n`,
  '.dockercfg': `{"x": {"auth": "${value}"}}\n`,
  '.vault-token': `${value}\n`,
  'android/release.keystore': value,
  'vault.kdbx': value,
};

describe('secret-bearing files the list gained', () => {
  it('the audit skips each, reports the committed ones, and still reads look-alikes', async () => {
    const root = tempDir();
    writeTree(root, {
      ...ADDED,
      'infra/main.tf': 'variable "db_password" {}\n',
      'docker/config.json': '{}\n',
    });
    gitInit(root);
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'secrets');
    const result = await collect(root);
    expect(result.secretFiles.map((file) => file.path).sort()).toEqual(Object.keys(ADDED).sort());
    expect(result.secretFiles.every((file) => file.isTracked)).toBe(true);
    for (const file of Object.keys(ADDED))
      expect(statusOf(result, file)).toBe('skipped(secret-file)');
    expect(candidatePaths(result)).toEqual(['docker/config.json', 'infra/main.tf']);
  });

  it.each(Object.keys(ADDED))(
    'the agent asks before reading %s, and oy run refuses',
    async (file) => {
      const rules = parsePermissionRules({ allow: ['Read(**)'], ask: [], deny: [] });
      const base = { rules, sessionGrants: [], workspaceRoot: '/ws' };
      const chat = await decide(
        { kind: 'read', tool: 'read', path: file },
        { ...base, mode: 'auto', isInteractive: true },
      );
      expect(chat).toMatchObject({ decision: 'ask', rule: 'secret-bearing-file' });
      const run = await decide(
        { kind: 'read', tool: 'read', path: file },
        { ...base, mode: 'auto', isInteractive: false },
      );
      expect(run).toMatchObject({ decision: 'deny', rule: 'secret-bearing-file' });
    },
  );

  it('control: an ordinary file next to them is read without asking', async () => {
    const rules = parsePermissionRules({ allow: [], ask: [], deny: [] });
    const result = await decide(
      { kind: 'read', tool: 'read', path: 'infra/main.tf' },
      { rules, sessionGrants: [], workspaceRoot: '/ws', mode: 'ask', isInteractive: false },
    );
    expect(result).toMatchObject({ decision: 'allow' });
  });

  it('counts its cases', () => {
    console.log(`secret-bearing file additions: ${Object.keys(ADDED).length + 2} cases`);
  });
});
