import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { createHookRunner } from '../../../src/agent/hooks/run-hooks.js';
import { McpServerPool, type McpServerEntry } from '../../../src/agent/mcp/mcp-server-pool.js';
import type { ShellSettings } from '../../../src/agent/tools/tool-types.js';
import {
  describeContainment,
  makeFolder,
  runBash,
  userEnv,
  type ContainmentCase,
} from './containment-support.js';

// Containment suite, home and environment: a home of credential places most of which no list can
// name (their names are drawn at run time) shows none of them to a sandboxed command, and 20
// variables with innocent names drawn at run time, each holding a fresh secret, reach no bash
// command, no MCP server (the user's or the repository's) and no hook. Controls: the same command
// unsandboxed reads every canary; a name the user allows, or a server's own env entry, arrives.

const STDIO_SERVER = path.resolve('test/fixtures/mcp/stdio-server.mjs');
const run = randomBytes(5).toString('hex');
const root = makeFolder('oy-contain-home-');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Credential places the issue found readable, by their real names. */
const NAMED_PLACES = [
  '.kaggle/kaggle.json',
  '.databrickscfg',
  '.snowflake/config.toml',
  '.mylogin.cnf',
  '.pg_service.conf',
  '.subversion/auth/svn.simple/5a1b2c',
  '.msmtprc',
  '.config/filezilla/sitemanager.xml',
  '.android/adbkey',
  '.local/share/opencode/auth.json',
  '.continue/config.json',
  '.cursor/mcp.json',
  '.codeium/windsurf/mcp_config.json',
  '.aider.conf.yml',
  '.config/goose/config.yaml',
  '.config/ngrok/ngrok.yml',
  '.config/stripe/config.toml',
  '.sentryclirc',
  '.composer/auth.json',
  '.bundle/config',
  '.config/pnpm/rc',
  '.bunfig.toml',
  '.condarc',
  '.pip/pip.conf',
  '.nuget/NuGet/NuGet.Config',
  '.ivy2/.credentials',
  '.sbt/1.0/credentials.sbt',
  '.huggingface/token',
  '.mc/config.json',
  '.passwd-s3fs',
  '.local/share/atuin/key',
  '.config/nix/nix.conf',
  '.wgetrc',
  '.curlrc',
  '.config/helm/repositories.yaml',
  '.local/share/python_keyring/keyring_pass.cfg',
  '.config/Bitwarden CLI/data.json',
  '.bluemix/config.json',
  '.config/scw/config.yaml',
  '.local/share/com.vercel.cli/auth.json',
  '.local/share/DBeaverData/workspace6/General/.dbeaver/credentials-config.json',
  '.mongodb/mongosh/mongosh_repl_history',
  '.ipython/profile_default/history.sqlite',
  '.chef/credentials',
  '.vagrant.d/insecure_private_key',
  '.config/Slack/storage/root-state.json',
  '.config/discord/Local Storage/leveldb/000003.log',
  // Inside a toolchain place that is shown: npm's global rc beside a Node nvm installed.
  '.nvm/versions/node/v20.0.0/etc/npmrc',
];

const WORDS = [
  'cloud',
  'vault',
  'sync',
  'relay',
  'forge',
  'pilot',
  'orbit',
  'nimbus',
  'ledger',
  'beacon',
];
const FILES = ['credentials', 'token', 'auth.json', 'session', 'config', 'key.pem', 'secrets.toml'];
const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)] as T;

/** Places named at run time: no list written before this run can hold them. */
function randomPlaces(count: number): string[] {
  const places = new Set<string>();
  while (places.size < count) {
    const name = `${pick(WORDS)}${randomBytes(3).toString('hex')}`;
    places.add(
      pick([
        `.${name}/${pick(FILES)}`,
        `.config/${name}/${pick(FILES)}`,
        `.local/share/${name}/${pick(FILES)}`,
        `.cache/${name}/${pick(FILES)}`,
        `.${name}rc`,
        `${name}/${pick(FILES)}`,
      ]),
    );
  }
  return [...places];
}

const home = path.join(root, 'home');
const workspace = path.join(root, 'workspace');
mkdirSync(workspace, { recursive: true });
const places = [...NAMED_PLACES, ...randomPlaces(120)];
const planted = places.map((relative, index) => {
  const file = path.join(home, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  const canary = `HOME-CANARY-${run}-${index}`;
  writeFileSync(file, `${canary}\n`);
  return { relative, file, canary };
});
// A toolchain the sandbox shows, as a control that showing works.
mkdirSync(path.join(home, '.nvm'), { recursive: true });
writeFileSync(path.join(home, '.nvm', 'nvm.sh'), `# nvm ${run}\n`);

/** Reads every planted file by name, then everything under HOME it can find. */
const READ_HOME =
  planted.map(({ file }) => `cat '${file}' 2>/dev/null;`).join(' ') +
  ` find "$HOME" -type f -exec cat {} + 2>/dev/null`;

/** 20 variables with innocent names drawn now, each holding a fresh secret. */
const variables = Object.fromEntries(
  Array.from({ length: 20 }, (_, index) => [
    `${pick(WORDS).toUpperCase()}_${pick(['MODE', 'LEVEL', 'REGION', 'FLAVOR', 'STAGE'])}_${randomBytes(2).toString('hex').toUpperCase()}${index}`,
    `${randomBytes(18).toString('base64url')}`,
  ]),
);
const names = Object.keys(variables);
const values = Object.values(variables);

function shell(extra: Partial<ShellSettings> = {}): ShellSettings {
  return {
    sandbox: 'on',
    allowedEnvNames: [],
    baseEnv: userEnv(home, variables),
    allowNetwork: false,
    ...extra,
  };
}

/** Every variable's value as one MCP server reports it. */
async function serverSees(entry: McpServerEntry): Promise<string> {
  const pool = new McpServerPool(
    { probe: entry },
    {
      workspaceRoot: workspace,
      baseEnv: userEnv(home, variables),
      allowedEnvNames: [],
      launch: {
        sandbox: { setting: 'on', allowNetwork: false, homePaths: [] },
        workspaceAccess: 'read-write',
      },
    },
  );
  try {
    const seen: string[] = [];
    for (const name of names) {
      const result = await pool.callTool(
        'probe',
        'show_env',
        { name },
        AbortSignal.timeout(30_000),
      );
      seen.push(JSON.stringify(result.content));
    }
    return seen.join('\n');
  } finally {
    await pool.close();
  }
}

async function hookSees(extra: Partial<ShellSettings> = {}): Promise<string> {
  const output = path.join(workspace, `.hook-env-${randomBytes(3).toString('hex')}`);
  const hooks = createHookRunner({
    hooks: { Stop: [{ command: `env > ${output}` }] },
    workspaceRoot: workspace,
    sessionId: undefined,
    mode: 'auto',
    shell: shell(extra),
    redact: (text) => text,
  });
  const outcome = await hooks?.('Stop', {}, AbortSignal.timeout(60_000));
  expect(outcome?.reports).toEqual([]);
  return readFileSync(output, 'utf8');
}

const server = { command: process.execPath, args: [STDIO_SERVER] };

const cases: ContainmentCase[] = [
  {
    name: `a home of ${planted.length} credential places (${planted.length - NAMED_PLACES.length} named at random): none is readable`,
    async check() {
      expect(planted.length).toBeGreaterThanOrEqual(150);
      const result = await runBash(workspace, READ_HOME, { baseEnv: userEnv(home) });
      expect(result.sandboxed).toBe(true);
      const seen = `${String(result.stdout)}${String(result.stderr)}`;
      const leaked = planted.filter(({ canary }) => seen.includes(canary));
      expect(leaked.map(({ relative }) => relative)).toEqual([]);
    },
  },
  {
    name: 'control: the same command unsandboxed reads every canary',
    async check() {
      const result = await runBash(workspace, READ_HOME, {
        baseEnv: userEnv(home),
        sandbox: 'off',
      });
      const seen = String(result.stdout);
      expect(planted.filter(({ canary }) => !seen.includes(canary)).map((p) => p.relative)).toEqual(
        [],
      );
    },
  },
  {
    name: 'a toolchain place is shown read-only, and the home is writable but thrown away',
    async check() {
      const result = await runBash(
        workspace,
        'cat ~/.nvm/nvm.sh; echo x > ~/.nvm/new 2>/dev/null || echo read-only; echo y > ~/scratch && cat ~/scratch',
        { baseEnv: userEnv(home) },
      );
      expect(result.stdout).toBe(`# nvm ${run}\nread-only\ny\n`);
    },
  },
  {
    name: 'agent.homePaths shows what the user names; credential places inside it stay hidden',
    async check() {
      const gh = path.join(home, '.config', 'gh', 'hosts.yml');
      mkdirSync(path.dirname(gh), { recursive: true });
      writeFileSync(gh, `oauth_token: GH-CANARY-${run}\n`);
      const shown = planted.find(({ relative }) => relative === '.kaggle/kaggle.json');
      const result = await runBash(
        workspace,
        `cat ~/.kaggle/kaggle.json ~/.config/gh/hosts.yml 2>/dev/null`,
        { baseEnv: userEnv(home), homePaths: ['~/.kaggle', '~/.config'] },
      );
      expect(result.stdout).toContain(shown?.canary);
      expect(result.stdout).not.toContain(`GH-CANARY-${run}`);
    },
  },
  {
    name: '20 variables with innocent names drawn at run time: none reaches a bash command',
    async check() {
      const result = await runBash(workspace, 'env', shell());
      for (const value of values) expect(result.stdout).not.toContain(value);
      for (const name of names) expect(result.stdout).not.toContain(`${name}=`);
    },
  },
  {
    name: 'control: a variable agent.allowEnv names reaches the command',
    async check() {
      const result = await runBash(workspace, 'env', shell({ allowedEnvNames: [names[0] ?? ''] }));
      expect(result.stdout).toContain(`${names[0]}=${values[0]}`);
      expect(result.stdout).not.toContain(values[1]);
    },
  },
  {
    name: "none reaches the user's MCP server (unsandboxed, in its neutral folder)",
    async check() {
      const seen = await serverSees({ config: server, source: 'user' });
      for (const value of values) expect(seen).not.toContain(value);
      expect(seen.match(/\(unset\)/g)).toHaveLength(names.length);
    },
  },
  {
    name: "none reaches the repository's MCP server (sandboxed)",
    async check() {
      const seen = await serverSees({ config: server, source: 'project' });
      for (const value of values) expect(seen).not.toContain(value);
      expect(seen.match(/\(unset\)/g)).toHaveLength(names.length);
    },
  },
  {
    name: "control: a server's own env entry reaches that server",
    async check() {
      const name = names[2] ?? '';
      const seen = await serverSees({
        config: { ...server, env: { [name]: 'from-config' } },
        source: 'user',
      });
      expect(seen).toContain(`${name}=from-config`);
    },
  },
  {
    name: 'none reaches a hook',
    async check() {
      const seen = await hookSees();
      for (const value of values) expect(seen).not.toContain(value);
      expect(seen).toContain(`HOME=${home}`);
    },
  },
  {
    name: 'control: a variable agent.allowEnv names reaches a hook',
    async check() {
      const seen = await hookSees({ allowedEnvNames: [names[3] ?? ''] });
      expect(seen).toContain(`${names[3]}=${values[3]}`);
    },
  },
];

describeContainment('home and environment', cases);
