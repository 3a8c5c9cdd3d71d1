import { randomInt } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/safety/redact/index.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';
import { createSecretFactory } from '../support/secret-factory.js';

/**
 * A server's metadata is untrusted text and reaches the model on every request: a fresh `ghp_` token
 * and a postgres password sit in a tool's name, title, annotations and input schema (keys, defaults,
 * enums, examples, descriptions, nested titles), its output schema, a prompt, a resource, a resource
 * template and the server's instructions (test/fixtures/mcp/metadata-server.mjs). Neither value may
 * appear in any request the strict fake provider records, in the session file or in oy's output.
 */
const MODEL = 'anthropic::claude-haiku-4-5';
const SERVER = path.resolve(import.meta.dirname, '../fixtures/mcp/metadata-server.mjs');

let fake: FakeProviderServer;

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake.close();
});

function makeDir(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

/** Every file under `folder`, read as text. */
function readTree(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));
}

function freshSecrets() {
  const factory = createSecretFactory(randomInt(1, 2 ** 31));
  const token = factory.githubToken('p');
  const password = factory.base62(24);
  const url = `postgres://app:${password}@db.internal:5432/billing`;
  return { token, password, url };
}

describe('MCP metadata is redacted before it reaches the model or a session file', () => {
  it('control: the server really serves both secrets in every kind of metadata', async () => {
    const { token, url } = freshSecrets();
    const client = new Client({ name: 'control', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SERVER],
        env: { SECRET_TOKEN: token, SECRET_URL: url, PATH: process.env.PATH ?? '' },
      }),
    );
    try {
      const { tools } = await client.listTools();
      const lookup = tools.find((tool) => tool.name === 'lookup_account')!;
      for (const part of [
        lookup.title,
        lookup.annotations,
        lookup.inputSchema,
        lookup.outputSchema,
        tools.map((tool) => tool.name),
      ])
        expect(JSON.stringify(part)).toMatch(new RegExp(`${token}|${url.replaceAll('.', '\\.')}`));
      expect(JSON.stringify(await client.listPrompts())).toContain(token);
      expect(JSON.stringify(await client.listResources())).toContain(url);
      expect(JSON.stringify(await client.listResourceTemplates())).toContain(token);
      expect(client.getInstructions()).toContain(token);
      // And the redactor knows both values, so a leak would be a missed path, not a missed format.
      const redactor = createRedactor();
      expect(redactor.redact(token).text).not.toContain(token);
      expect(redactor.redact(url).text).not.toContain(url.split(':')[2]!.split('@')[0]!);
    } finally {
      await client.close();
    }
  });

  it('oy run: no request body, no session line and no output holds either secret', async () => {
    const { token, password, url } = freshSecrets();
    const workspace = makeDir('oy-mcp-meta-ws-');
    const stateHome = makeDir('oy-mcp-meta-state-');
    const configFile = path.join(makeDir('oy-mcp-meta-config-'), 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        mcpServers: {
          meta: {
            command: process.execPath,
            args: [SERVER],
            env: { SECRET_TOKEN: token, SECRET_URL: url },
          },
        },
      }),
    );
    fake.enqueue(
      {
        kind: 'answer',
        toolCalls: [{ name: 'mcp__meta__lookup_account', arguments: { account: 'alice' } }],
      },
      reply.text('Looked up.'),
    );
    const first = fake.modelCalls.length;
    const run = await runOy(
      ['run', '--json', '--mode', 'auto', '--model', MODEL, 'look alice up'],
      {
        cwd: workspace,
        env: { ...fakeProviderEnv(fake), OY_CONFIG: configFile, XDG_STATE_HOME: stateHome },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    fake.assertDone();

    const bodies = fake.modelCalls.slice(first).map((call) => JSON.stringify(call.body));
    expect(bodies).toHaveLength(2);
    const sessions = readTree(path.join(stateHome, 'oy', 'sessions'));
    expect(sessions.length).toBeGreaterThan(0);
    for (const text of [...bodies, ...sessions, run.stdout, run.stderr]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(password);
      expect(text).not.toContain(url);
    }

    // Controls: the tool was offered with its schema (redacted, not dropped), its call ran, and
    // the session recorded it, so the checks above looked at real traffic.
    const tools = (
      JSON.parse(bodies[0]!) as { tools: Array<{ name: string; input_schema: unknown }> }
    ).tools;
    const lookup = tools.find((tool) => tool.name === 'mcp__meta__lookup_account');
    const schema = JSON.stringify(lookup?.input_schema);
    expect(schema).toContain('"account"');
    expect(schema).toContain('[REDACTED:');
    expect(schema).toContain('"deeper"');
    // The tool named with the token is offered under a redacted name.
    const named = tools.find((tool) => tool.name.startsWith('mcp__meta__fetch_'));
    expect(named?.name).toMatch(/^mcp__meta__fetch__REDACTED_/u);
    expect(bodies[1]).toContain('looked up alice');
    expect(sessions.join('\n')).toContain('looked up alice');
  });
});
