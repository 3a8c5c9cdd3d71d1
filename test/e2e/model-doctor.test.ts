import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OY_BIN, PROJECT_ROOT, runOy } from '../support/run-oy.js';
import { startFakeServeProcess, type FakeServeProcess } from '../support/serve-fake.js';
import { spawn } from 'node:child_process';

/** Credentials and model variables a developer's shell may hold: unset for every run here. */
const CLEAN_ENV: NodeJS.ProcessEnv = Object.fromEntries(
  [
    'OY_MODEL',
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_BASE_URL',
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
    'OPENROUTER_API_KEY',
    'LOCAL_API_KEY',
    'BEDROCK_REGION',
    'AWS_REGION',
    'AWS_DEFAULT_REGION',
    'AWS_PROFILE',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_CONFIG_FILE',
    'AWS_SHARED_CREDENTIALS_FILE',
    'AWS_ENDPOINT_URL_BEDROCK_RUNTIME',
  ].map((name) => [name, undefined]),
);

/** A distinctive key value: it must never appear in anything oy prints. */
const FAKE_KEY = 'sk-ant-fake-e2e-4f9c2b7d1e6a';

let home: string;
let workspace: string;
let configFile: string;
let fake: FakeServeProcess | undefined;

beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), 'oy-model-doctor-'));
  workspace = path.join(home, 'work');
  mkdirSync(workspace);
  configFile = path.join(home, 'config', 'oy', 'config.json');
});

afterEach(async () => {
  await fake?.stop();
  fake = undefined;
  rmSync(home, { recursive: true, force: true });
});

function oy(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runOy(args, {
    cwd: workspace,
    env: {
      ...CLEAN_ENV,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      OY_CONFIG: configFile,
      ...env,
    },
  });
}

function writeConfig(content: unknown, mode = 0o600): void {
  mkdirSync(path.dirname(configFile), { recursive: true, mode: 0o700 });
  writeFileSync(configFile, JSON.stringify(content), { mode });
  chmodSync(configFile, mode);
}

interface Check {
  id: string;
  status: string;
  detail: string;
  hint?: string;
  data?: Record<string, unknown>;
}

function parseDoctor(stdout: string): { ok: boolean; checks: Check[] } {
  return JSON.parse(stdout) as { ok: boolean; checks: Check[] };
}

const checkById = (checks: Check[], id: string) => checks.find((check) => check.id === id);

function writeScript(content: unknown): string {
  const file = path.join(home, `script-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('oy doctor', () => {
  it('passes with no model and no credentials, and says audits run offline', async () => {
    const result = await oy(['doctor']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/model\s+none: audits run offline/);
    expect(result.stdout).toMatch(/credentials\s+none found/);
    expect(result.stdout).toContain('all required checks passed');
    expect(result.stdout).toMatch(/node\s+Node \d+\.\d+\.\d+/);
    expect(result.stdout).toMatch(
      /safety\s+default mode ask: read allowed; write, bash, webfetch, mcp ask/,
    );
    expect(result.stdout).toMatch(/sandbox\s+(available|unavailable \(.+\))/);
    expect(result.stdout).toContain(`${configFile} (not present; defaults apply)`);
  });

  it('fails when the configured model has no key, naming the variable', async () => {
    writeConfig({ model: 'anthropic::claude-haiku-4-5' });
    const result = await oy(['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /fail\s+model-credentials\s+anthropic::claude-haiku-4-5 needs ANTHROPIC_API_KEY/,
    );
    expect(result.stdout).toContain(`from ${configFile}`);
    expect(result.stdout).toContain('1 required check failed');
  });

  it('names the credentials present and never prints their values', async () => {
    writeConfig({ model: 'anthropic::claude-haiku-4-5' });
    const env = {
      ANTHROPIC_API_KEY: FAKE_KEY,
      OPENAI_API_KEY: `${FAKE_KEY}-openai`,
      AWS_PROFILE: 'fake-profile-name',
    };
    const text = await oy(['doctor'], env);
    const json = await oy(['doctor', '--json'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /ok\s+model-credentials\s+anthropic::claude-haiku-4-5: present \(ANTHROPIC_API_KEY\)/,
    );
    expect(text.stdout).toContain('anthropic (ANTHROPIC_API_KEY)');
    expect(text.stdout).toContain('openai (OPENAI_API_KEY)');
    expect(text.stdout).toContain('bedrock (AWS_PROFILE)');
    for (const output of [text.stdout, text.stderr, json.stdout, json.stderr]) {
      expect(output).not.toContain(FAKE_KEY);
      expect(output).not.toContain('fake-profile-name');
    }
  });

  it('prints one JSON object with every check', async () => {
    const result = await oy(['doctor', '--json']);
    expect(result.code).toBe(0);
    const report = parseDoctor(result.stdout);
    expect(report.ok).toBe(true);
    const ids = report.checks.map((check) => check.id);
    for (const id of [
      'node',
      'oy',
      'workspace',
      'config',
      'model',
      'credentials',
      'bash',
      'git',
      'sandbox',
      'terminal',
      'safety',
    ]) {
      expect(ids).toContain(id);
    }
    for (const check of report.checks) {
      expect(['ok', 'warn', 'fail', 'info']).toContain(check.status);
      expect(typeof check.detail).toBe('string');
    }
    expect(checkById(report.checks, 'workspace')?.data).toMatchObject({
      root: workspace,
      isGitWorkTree: false,
    });
    expect(checkById(report.checks, 'terminal')?.data).toMatchObject({
      stdoutIsTTY: false,
      isColored: false,
    });
    expect(checkById(report.checks, 'model')?.data).toEqual({ id: null });
    expect(checkById(report.checks, 'online')).toBeUndefined();
  });

  it('sees a git work tree', async () => {
    mkdirSync(path.join(workspace, '.git'));
    const report = parseDoctor((await oy(['doctor', '--json'])).stdout);
    expect(checkById(report.checks, 'workspace')?.data).toMatchObject({
      isGitWorkTree: true,
      gitTop: workspace,
    });
  });

  it('warns about a config file others can read, without failing', async () => {
    writeConfig({ audit: { maxChunks: 10 } }, 0o644);
    const result = await oy(['doctor']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /warn\s+config\s+.*readable or writable by group\/others \(mode 0644\)/,
    );
    expect(result.stdout).toContain(`hint: chmod 600 ${configFile}`);
    const report = parseDoctor((await oy(['doctor', '--json'])).stdout);
    expect(checkById(report.checks, 'config')).toMatchObject({
      status: 'warn',
      data: { mode: '0644', isValid: true },
    });
  });

  it('fails on an invalid config file', async () => {
    writeConfig({ audit: { maxChunks: -1 } });
    const result = await oy(['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/fail\s+config\s+config file .*audit\.maxChunks/);
  });

  it('does not read a symlinked project config or .oy folder, as the audit does not', async () => {
    const canary = `CANARY${randomBytes(6).toString('hex')}`;
    const target = path.join(home, 'private.txt');
    writeFileSync(target, `${canary}=secret\n`);
    mkdirSync(path.join(workspace, '.oy'));
    symlinkSync(target, path.join(workspace, '.oy', 'config.json'));
    const linked = await oy(['doctor']);
    expect(linked.stdout).not.toContain(canary.slice(0, 8));
    expect(linked.stdout).toMatch(/warn\s+project-config\s+\.oy\/config\.json is a symlink/);
    const audit = await oy(['audit', '--offline', '--dry-run']);
    expect(audit.stderr).toContain('.oy/config.json is a symlink; the project file is not read');
    // A linked .oy folder is refused the same way.
    rmSync(path.join(workspace, '.oy'), { recursive: true });
    mkdirSync(path.join(home, 'elsewhere'));
    writeFileSync(path.join(home, 'elsewhere', 'config.json'), `${canary}=secret\n`);
    symlinkSync(path.join(home, 'elsewhere'), path.join(workspace, '.oy'));
    const folder = await oy(['doctor', '--json']);
    expect(folder.stdout).not.toContain(canary.slice(0, 8));
    expect(checkById(parseDoctor(folder.stdout).checks, 'project-config')).toMatchObject({
      status: 'warn',
      detail: '.oy is a symlink; the project file is not read',
    });
    // Control: the same text in a real project file is read, and its parse error quotes it.
    rmSync(path.join(workspace, '.oy'));
    mkdirSync(path.join(workspace, '.oy'));
    writeFileSync(path.join(workspace, '.oy', 'config.json'), `${canary}=secret\n`);
    const real = await oy(['doctor']);
    expect(real.code).toBe(1);
    expect(real.stdout).toContain(canary.slice(0, 8));
  });

  it('fails on a bad model id and suggests the prefix', async () => {
    const result = await oy(['doctor', '--model', 'antropic::claude-haiku-4-5']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('did you mean anthropic::claude-haiku-4-5?');
  });

  it('--online proves an Anthropic key against the fake provider', async () => {
    const log = path.join(home, 'requests.jsonl');
    fake = await startFakeServeProcess({
      script: writeScript([
        { kind: 'answer', text: 'OK', usage: { inputTokens: 14, outputTokens: 1 } },
      ]),
      log,
    });
    const result = await oy(['doctor', '--online', '--model', 'anthropic::claude-haiku-4-5'], {
      ANTHROPIC_API_KEY: FAKE_KEY,
      ANTHROPIC_BASE_URL: fake.url,
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /ok\s+online\s+anthropic::claude-haiku-4-5 answered in \d+ ms \(14 input, 1 output tokens\)/,
    );
    expect(result.stdout + result.stderr).not.toContain(FAKE_KEY);
    const stopped = await fake.stop();
    expect(stopped.code, stopped.stderr).toBe(0);
    const requests = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { path: string; body: { max_tokens: number; model: string } },
      );
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      path: '/v1/messages',
      body: { model: 'claude-haiku-4-5', max_tokens: 1 },
    });
  });

  it.each([
    [
      'anthropic::claude-sonnet-5',
      (url: string) => ({ ANTHROPIC_API_KEY: FAKE_KEY, ANTHROPIC_BASE_URL: url }),
    ],
    [
      'bedrock::global.anthropic.claude-sonnet-5',
      (url: string) => ({
        AWS_ACCESS_KEY_ID: 'AKIAFAKEDOCTOR0000000',
        AWS_SECRET_ACCESS_KEY: FAKE_KEY,
        AWS_REGION: 'us-east-1',
        AWS_ENDPOINT_URL_BEDROCK_RUNTIME: url,
        AWS_EC2_METADATA_DISABLED: 'true',
      }),
    ],
  ])(
    '--online passes against a thinking model (%s), leaving room for its thinking',
    async (model, envFor) => {
      const log = path.join(home, 'requests.jsonl');
      fake = await startFakeServeProcess({
        script: writeScript([{ kind: 'answer', thinking: [{ text: 'A probe.' }], text: 'OK' }]),
        log,
      });
      const result = await oy(['doctor', '--online', '--model', model], envFor(fake.url));
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toMatch(
        new RegExp(`ok\\s+online\\s+${model.replaceAll('.', '\\.')} answered`),
      );
      const stopped = await fake.stop();
      expect(stopped.code, stopped.stderr).toBe(0);
      const [request] = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              body: { max_tokens?: number; inferenceConfig?: { maxTokens: number } };
            },
        );
      // The fake validates: a 1-token max_tokens would leave a thinking model no room to answer.
      expect(request?.body.max_tokens ?? request?.body.inferenceConfig?.maxTokens).toBeGreaterThan(
        1024,
      );
    },
  );

  it('--online fails clearly on a 401 and does not retry it', async () => {
    fake = await startFakeServeProcess({
      script: writeScript([{ kind: 'error', status: 401, message: 'invalid x-api-key' }]),
    });
    const result = await oy(['doctor', '--online'], {
      OY_MODEL: 'claude-haiku-4-5',
      ANTHROPIC_API_KEY: FAKE_KEY,
      ANTHROPIC_BASE_URL: fake.url,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /fail\s+online\s+anthropic::claude-haiku-4-5: [^\n]*401[^\n]*\n\s+hint: [^\n]*ANTHROPIC_API_KEY/,
    );
    expect(result.stdout + result.stderr).not.toContain(FAKE_KEY);
    // Exactly one call: a retry would have found the script exhausted and been counted as unexpected.
    const stopped = await fake.stop();
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain('1 model calls');
  });

  it('--online with no model fails with advice', async () => {
    const result = await oy(['doctor', '--online']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/fail\s+online\s+no model to contact/);
  });
});

describe('oy model', () => {
  it('lists the Anthropic catalogue from the installed SDK', async () => {
    const declarations = readFileSync(
      path.join(PROJECT_ROOT, 'node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts'),
      'utf8',
    );
    const sdkIds = [
      ...(/export type Model\s*=([^;]+);/.exec(declarations)?.[1] ?? '').matchAll(/'([^']+)'/g),
    ].map((match) => `anthropic::${match[1]}`);
    expect(sdkIds.length).toBeGreaterThan(0);

    const result = await oy(['model', '--json']);
    expect(result.code).toBe(0);
    const listing = JSON.parse(result.stdout) as {
      default: unknown;
      credentials: unknown[];
      catalogue: Array<{
        provider: string;
        source: string;
        models: Array<{ id: string; deprecatedUntil: string | null }>;
        error: string | null;
      }>;
      discovered: unknown[];
    };
    expect(listing.default).toBeNull();
    expect(listing.credentials).toEqual([]);
    expect(listing.discovered).toEqual([]);
    const anthropic = listing.catalogue.find((section) => section.provider === 'anthropic');
    expect(anthropic?.source).toMatch(/^@anthropic-ai\/sdk \d+\.\d+\.\d+/);
    expect(anthropic?.error).toBeNull();
    expect(anthropic?.models.map((model) => model.id)).toEqual(sdkIds);
    const openai = listing.catalogue.find((section) => section.provider === 'openai');
    expect(openai?.models.map((model) => model.id)).toContain('openai::gpt-4o');
    const bedrock = listing.catalogue.find((section) => section.provider === 'bedrock');
    expect(bedrock?.models.length).toBeGreaterThan(0);
    // Profile-only models are listed by their inference-profile ids, never by a bare on-demand id.
    const bedrockIds = bedrock?.models.map((model) => model.id) ?? [];
    expect(bedrockIds).toContain('bedrock::us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(bedrockIds).toContain('bedrock::eu.anthropic.claude-haiku-4-5-20251001-v1:0');
    expect(bedrockIds).not.toContain('bedrock::anthropic.claude-sonnet-4-5-20250929-v1:0');
    // Claude 3 Haiku runs on demand, so its bare id stays.
    expect(bedrockIds).toContain('bedrock::anthropic.claude-3-haiku-20240307-v1:0');

    const text = await oy(['model']);
    expect(text.stdout).toContain('default model: none');
    expect(text.stdout).toContain(sdkIds[0]);
  });

  it('shows the configured default, where it came from, and credentials by name', async () => {
    writeConfig({ model: 'claude-haiku-4-5' });
    const result = await oy(['model'], { ANTHROPIC_API_KEY: FAKE_KEY });
    expect(result.stdout).toContain(
      `default model: anthropic::claude-haiku-4-5 (from ${configFile})`,
    );
    expect(result.stdout).toContain('credentials present: anthropic (ANTHROPIC_API_KEY)');
    expect(result.stdout).not.toContain(FAKE_KEY);
    const fromEnv = await oy(['model'], { OY_MODEL: 'o3' });
    expect(fromEnv.stdout).toContain('default model: openai::o3 (from OY_MODEL)');
  });

  it('saves an id as the default: 0600 file in a 0700 directory, other keys kept', async () => {
    const saved = await oy(['model', 'claude-haiku-4-5']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toBe(
      `saved anthropic::claude-haiku-4-5 as the default model in ${configFile}\n`,
    );
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(configFile)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toEqual({
      model: 'anthropic::claude-haiku-4-5',
    });

    writeConfig(
      { model: 'gpt-4o', audit: { maxChunks: 12 }, permissions: { deny: ['Bash(rm:*)'] } },
      0o644,
    );
    const again = await oy(['model', 'local-8080::qwen2.5-coder', '--json']);
    expect(JSON.parse(again.stdout)).toEqual({
      saved: 'local-8080::qwen2.5-coder',
      provider: 'local',
      configFile,
      deprecatedUntil: null,
    });
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toEqual({
      model: 'local-8080::qwen2.5-coder',
      audit: { maxChunks: 12 },
      permissions: { deny: ['Bash(rm:*)'] },
    });
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    // The saved file is one the loader accepts.
    expect((await oy(['doctor'])).stdout).toMatch(/model\s+local-8080::qwen2\.5-coder/);
  });

  it('warns when the saved model is deprecated in the SDK', async () => {
    const declarations = readFileSync(
      path.join(PROJECT_ROOT, 'node_modules/@anthropic-ai/sdk/resources/messages/messages.js'),
      'utf8',
    );
    const deprecated = /DEPRECATED_MODELS\s*=\s*\{\s*'([^']+)':\s*'([^']+)'/.exec(declarations);
    if (!deprecated) return;
    const result = await oy(['model', `anthropic::${deprecated[1]}`]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `warning: anthropic::${deprecated[1]} is deprecated and reaches end of life on ${deprecated[2]}`,
    );
  });

  it('refuses to overwrite a config file that is not JSON', async () => {
    mkdirSync(path.dirname(configFile), { recursive: true });
    writeFileSync(configFile, '{ "model": ');
    const result = await oy(['model', 'o3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: config file .* is not valid JSON/);
    expect(readFileSync(configFile, 'utf8')).toBe('{ "model": ');
  });

  it.each([
    ['antropic::claude-haiku-4-5', 'did you mean anthropic::claude-haiku-4-5?'],
    ['llama3', 'ollama::'],
    ['local-0::m', 'local-8080::my-model'],
  ])('rejects %s with exit 2 and a suggestion', async (id, suggestion) => {
    const result = await oy(['model', id]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(/^error: .*model id/);
    expect(result.stderr).toContain(id);
    expect(result.stderr).toContain(suggestion);
    expect(result.stdout).toBe('');
  });

  it('discovers models from a local-<port> endpoint served by the fake', async () => {
    fake = await startFakeServeProcess({ models: ['qwen2.5-coder', 'llama-3.3-70b'] });
    const port = new URL(fake.url).port;
    const result = await oy(['model', '--json'], { OY_MODEL: `local-${port}::qwen2.5-coder` });
    expect(result.code, result.stderr).toBe(0);
    const listing = JSON.parse(result.stdout) as { discovered: unknown[] };
    expect(listing.discovered).toEqual([
      {
        provider: 'local',
        endpoint: `http://127.0.0.1:${port}/v1`,
        models: [`local-${port}::qwen2.5-coder`, `local-${port}::llama-3.3-70b`],
        error: null,
      },
    ]);
    const text = await oy(['model'], { OY_MODEL: `local-${port}::qwen2.5-coder` });
    expect(text.stdout).toContain(
      `local at http://127.0.0.1:${port}/v1:\n  local-${port}::qwen2.5-coder\n`,
    );
    expect((await fake.stop()).code).toBe(0);
  });

  it('reports an endpoint that does not answer in one line, not as an error', async () => {
    // Port 9 (discard) on loopback: nothing listens there in the test environment.
    const result = await oy(['model'], { OY_MODEL: 'local-9::m' });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /local at http:\/\/127\.0\.0\.1:9\/v1:\n {2}could not list models: .+\n/,
    );
  });
});

describe('help', () => {
  it.each([['model'], ['doctor']])('oy %s --help', async (command) => {
    const result = await oy([command, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout.replace(/oy\/\d+\.\d+\.\d+\S*/, 'oy/<version>')).toMatchSnapshot();
  });
});

describe('start-up stays lean', () => {
  it.each([[['--version']], [['audit', '--help']], [['--help']]])(
    'oy %j loads no provider SDK and no command module',
    async (args) => {
      const trace = path.join(home, 'imports.txt');
      writeFileSync(trace, '');
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn(
          process.execPath,
          ['--import', path.join(PROJECT_ROOT, 'test/support/trace-imports.mjs'), OY_BIN, ...args],
          { cwd: workspace, env: { ...process.env, OY_TRACE_IMPORTS: trace }, stdio: 'ignore' },
        );
        child.on('close', resolve);
      });
      expect(code).toBe(0);
      const loaded = readFileSync(trace, 'utf8')
        .split('\n')
        .filter((url) => url.startsWith('file:'));
      expect(loaded.some((url) => url.endsWith('/dist/cli/create-cli.js'))).toBe(true);
      for (const forbidden of [
        '@anthropic-ai',
        'sh-syntax',
        'openai',
        '@aws-sdk',
        'tiktoken',
        'zod',
        '/dist/providers/',
        '/dist/cli/commands/',
        '/dist/cli/doctor/',
        '/dist/cli/model/',
      ]) {
        expect(
          loaded.filter((url) => url.includes(forbidden)),
          forbidden,
        ).toEqual([]);
      }
    },
  );
});
