import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMcpTools } from '../../../src/agent/mcp/create-mcp-tools.js';
import type { McpServerPool } from '../../../src/agent/mcp/mcp-server-pool.js';
import { redactMcpSchema } from '../../../src/agent/mcp/redact-mcp-schema.js';
import { createRedactor } from '../../../src/safety/redact/index.js';
import { createSecretFactory } from '../../support/secret-factory.js';

/**
 * What createMcpTools offers the model of a server's tool: its name, description and input schema,
 * each redacted; fresh secrets per run, and a control without the redactor for each.
 */
function fresh() {
  const factory = createSecretFactory(randomInt(1, 2 ** 31));
  return {
    token: factory.githubToken('p'),
    password: factory.base62(20),
    redact: (
      (redactor) => (text: string) =>
        redactor.redact(text).text
    )(createRedactor()),
  };
}

function offered(
  tool: { name: string; description?: string; inputSchema: Record<string, unknown> },
  redact: (text: string) => string,
) {
  const [agentTool] = createMcpTools(
    {} as McpServerPool,
    [{ server: 'srv', tools: [{ description: '', isReadOnly: false, ...tool }] }],
    redact,
  );
  return JSON.stringify({ ...agentTool!, run: undefined });
}

describe('MCP tool metadata offered to the model', () => {
  it('a secret in the tool name: the offered name is built from the redacted name', () => {
    const { token, redact } = fresh();
    const tool = { name: `fetch_${token}`, inputSchema: { type: 'object' } };
    expect(offered(tool, redact)).not.toContain(token);
    expect(offered(tool, redact)).toMatch(
      /"name":"mcp__srv__fetch__REDACTED_github-token_1__[0-9a-f]{8}"/u,
    );
    // Control: without the redactor the token is the name.
    expect(offered(tool, (text) => text)).toContain(token);
  });

  it('a secret straddling the description’s 2,000-character cut is redacted before the cut', () => {
    const { token, redact } = fresh();
    const prefix = `[MCP server srv] `;
    const description = `${'x'.repeat(2000 - prefix.length - 10)} ${token} tail`;
    const shown = offered({ name: 't', description, inputSchema: { type: 'object' } }, redact);
    expect(shown).not.toContain(token.slice(0, 9));
    // Control: cutting first would leave the token's first nine characters behind.
    expect(redact(`${prefix}${description}`.slice(0, 2000))).toContain(token.slice(0, 9));
  });

  it('secrets anywhere in the schema: keys, defaults, enums, examples, titles, nested, beside their property', () => {
    const { token, password, redact } = fresh();
    const url = `postgres://app:${password}@db:5432/app`;
    const schema = {
      type: 'object',
      title: `t ${token}`,
      properties: {
        [`key_${token}`]: { type: 'string' },
        token: { type: 'string', default: token, examples: [token] },
        dsn: { type: 'string', enum: [url], description: `like ${url}` },
        // A bare value that is a secret only beside its name.
        db_password: { type: 'string', default: password },
        nested: {
          type: 'object',
          properties: { deep: { type: 'array', items: { type: 'string', const: token } } },
        },
      },
    };
    const shown = JSON.stringify(redactMcpSchema(schema, redact));
    for (const secret of [token, password, url]) expect(shown).not.toContain(secret);
    // Still a schema: its structure and harmless words are kept.
    const parsed = redactMcpSchema(schema, redact) as { properties: Record<string, unknown> };
    expect(Object.keys(parsed.properties)).toEqual(
      expect.arrayContaining(['token', 'dsn', 'db_password', 'nested']),
    );
    expect(shown).toContain('"type":"array"');
    // Control: the bare password alone is not what the redactor flags; beside its name it is.
    expect(redact(password)).toBe(password);
    expect(redact(`db_password=${password}`)).not.toContain(password);
  });

  it('a schema too deep, too large or not an object becomes a bare object', () => {
    const { redact } = fresh();
    let deep: Record<string, unknown> = { type: 'string' };
    for (let depth = 0; depth < 100; depth += 1) deep = { type: 'object', properties: { a: deep } };
    const bare = { type: 'object', additionalProperties: true };
    expect(redactMcpSchema(deep, redact)).toEqual(bare);
    expect(redactMcpSchema({ type: 'object', description: 'x'.repeat(30_000) }, redact)).toEqual(
      bare,
    );
    expect(redactMcpSchema({ type: 'array' }, redact)).toEqual(bare);
  });
});
