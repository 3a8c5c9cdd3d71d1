import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeMcpServers, readProjectMcpFile } from '../../../src/agent/mcp/project-mcp-file.js';
import { mcpServersSchema } from '../../../src/config/mcp-servers-schema.js';

/** What a repository's `.mcp.json` may say, and what its approval line shows. */
function workspaceWith(servers: Record<string, unknown>): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-mcp-file-')));
  writeFileSync(path.join(root, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
  return root;
}

async function problemOf(server: Record<string, unknown>, setUp?: (root: string) => void) {
  const root = workspaceWith({ repo: { command: 'node', args: ['server.js'], ...server } });
  setUp?.(root);
  const read = await readProjectMcpFile(root);
  return read !== undefined && 'problem' in read ? read.problem : undefined;
}

describe("a workspace's .mcp.json", () => {
  it('refuses variables that change what code runs, in any case, and keeps harmless ones', async () => {
    for (const name of [
      'NODE_OPTIONS',
      'LD_PRELOAD',
      'DYLD_INSERT_LIBRARIES',
      'PYTHONSTARTUP',
      'PERL5OPT',
      'BASH_ENV',
      'PATH',
      'npm_config_registry',
      'UV_INDEX_URL',
      'GIT_SSH_COMMAND',
    ])
      expect(await problemOf({ env: { [name]: 'x' } }), name).toContain(`sets ${name}`);
    for (const name of ['PYTHONUNBUFFERED', 'LOG_LEVEL', 'NODE_ENV', 'DEBUG'])
      expect(await problemOf({ env: { [name]: '1' } }), name).toBeUndefined();
  });

  it('keeps a server inside the workspace: no absolute path out, no .., no link out', async () => {
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-mcp-out-')));
    expect(await problemOf({ cwd: outside })).toContain('outside the workspace');
    expect(await problemOf({ cwd: '../' })).toContain('outside the workspace');
    expect(
      await problemOf({ cwd: 'out' }, (root) => symlinkSync(outside, path.join(root, 'out'))),
    ).toContain('outside the workspace');
    expect(
      await problemOf({ cwd: 'tools' }, (root) => mkdirSync(path.join(root, 'tools'))),
    ).toBeUndefined();
    expect(await problemOf({ cwd: '.' })).toBeUndefined();
  });

  it('shows everything that decides what runs before approval: command, args, folder, environment, headers', () => {
    expect(
      describeMcpServers({
        repo: { command: 'npx', args: ['-y', 'server'], cwd: 'tools', env: { LOG: 'debug' } },
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
      }),
    ).toEqual([
      'repo: "npx" "-y" "server" in tools with LOG="debug"',
      'remote: https://mcp.example.com/mcp (headers Authorization)',
    ]);
  });

  it('names servers so none can pose as another: no __, no control characters', () => {
    const valid = (name: string) =>
      mcpServersSchema.safeParse({ [name]: { command: 'x' } }).success;
    expect(valid('github')).toBe(true);
    expect(valid('my_server-2')).toBe(true);
    expect(valid('github__create')).toBe(false);
    expect(valid('a___b')).toBe(false);
    expect(valid('evil\u001b[2J')).toBe(false);
  });
});
