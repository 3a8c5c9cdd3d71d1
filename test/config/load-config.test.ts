import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/shared/errors.js';

function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), 'oy-config-'));
  const workspace = path.join(dir, 'ws');
  mkdirSync(path.join(workspace, '.oy'), { recursive: true });
  const userFile = path.join(dir, 'user.json');
  return { dir, workspace, userFile, env: { HOME: dir, OY_CONFIG: userFile } as NodeJS.ProcessEnv };
}

describe('loadConfig', () => {
  it('reads the user file, the project file, the environment and the flags in order', async () => {
    const { workspace, userFile, env } = setup();
    writeFileSync(
      userFile,
      JSON.stringify({ model: 'anthropic::claude-x', audit: { chunkTokens: 9000, maxChunks: 7 } }),
    );
    writeFileSync(
      path.join(workspace, '.oy', 'config.json'),
      JSON.stringify({ audit: { maxChunks: 5, exclude: ['a/**'] } }),
    );
    const loaded = await loadConfig({
      workspaceRoot: workspace,
      env: { ...env, OY_MODEL: 'openai::gpt-x' },
      flags: { audit: { exclude: ['b/**'] } },
    });
    expect(loaded.config.model).toBe('openai::gpt-x');
    expect(loaded.config.audit).toMatchObject({
      chunkTokens: 9000,
      maxChunks: 5,
      exclude: ['b/**'],
    });
    expect(loaded.paths.userConfigFile).toBe(userFile);
  });

  it('uses XDG_CONFIG_HOME when OY_CONFIG is not set', async () => {
    const { dir, workspace } = setup();
    const xdg = path.join(dir, 'xdg');
    mkdirSync(path.join(xdg, 'oy'), { recursive: true });
    writeFileSync(path.join(xdg, 'oy', 'config.json'), JSON.stringify({ model: 'ollama::llama3' }));
    const loaded = await loadConfig({
      workspaceRoot: workspace,
      env: { HOME: dir, XDG_CONFIG_HOME: xdg },
      flags: {},
    });
    expect(loaded.config.model).toBe('ollama::llama3');
    expect(loaded.paths.cacheDir).toBe(path.join(dir, '.cache', 'oy'));
  });

  it.each([
    ['not JSON', '{ model: ', /not valid JSON/],
    ['an unknown key', JSON.stringify({ modle: 'x' }), /modle|Unrecognized/i],
    ['a wrong type', JSON.stringify({ audit: { maxChunks: 'many' } }), /audit\.maxChunks/],
    ['an out-of-range number', JSON.stringify({ audit: { chunkTokens: 5 } }), /audit\.chunkTokens/],
  ])('rejects a user file with %s, naming the file', async (_name, content, pattern) => {
    const { workspace, userFile, env } = setup();
    writeFileSync(userFile, content);
    const attempt = loadConfig({ workspaceRoot: workspace, env, flags: {} });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(pattern);
    await expect(attempt).rejects.toThrow(userFile);
  });

  it('lists every schema problem of a file, each with its path', async () => {
    const { workspace, userFile, env } = setup();
    writeFileSync(
      userFile,
      JSON.stringify({
        modle: 'x',
        audit: { maxChunks: -1, format: 'xml' },
        permissions: { allow: ['Bash(npm test', 'Shell(ls)', 'Bash(git status:*)'] },
      }),
    );
    const attempt = loadConfig({ workspaceRoot: workspace, env, flags: {} });
    await expect(attempt).rejects.toThrow(`config file ${userFile} has 5 problems:`);
    const message = await attempt.catch((error: Error) => error.message);
    for (const line of [
      '  (top level): Unrecognized key: "modle"',
      '  audit.maxChunks: ',
      '  audit.format: ',
      '  permissions.allow.0: invalid permission rule "Bash(npm test": the parenthesis after Bash is not closed',
      '  permissions.allow.1: invalid permission rule "Shell(ls)": unknown tool "Shell"',
    ])
      expect(message).toContain(line);
    // Control: the well-formed rule is not among them.
    expect(message).not.toContain('permissions.allow.2');
  });

  it.each([['~/../etc'], ['~/a/../../b'], ['/opt/tools'], ['tools'], ['~/x/..']])(
    'refuses agent.homePaths entry %s, naming the key and the form',
    async (place) => {
      const { workspace, userFile, env } = setup();
      writeFileSync(userFile, JSON.stringify({ agent: { homePaths: ['~/.nvm', place] } }));
      await expect(loadConfig({ workspaceRoot: workspace, env, flags: {} })).rejects.toThrow(
        'agent.homePaths.1: a home path starts with ~/ and names a place inside your home folder, without ..',
      );
    },
  );

  it.each([['Bash(npm test'], ['Shell(ls)'], ['read(src/**)'], ['Bash(ls))x']])(
    'refuses the malformed rule %s at load, naming it',
    async (rule) => {
      const { workspace, env } = setup();
      writeFileSync(
        path.join(workspace, '.oy', 'config.json'),
        JSON.stringify({ permissions: { deny: [rule] } }),
      );
      const attempt = loadConfig({ workspaceRoot: workspace, env, flags: {} });
      await expect(attempt).rejects.toThrow(
        `permissions.deny.0: invalid permission rule ${JSON.stringify(rule)}`,
      );
    },
  );

  it('treats a missing file as no layer', async () => {
    const { workspace, env } = setup();
    const loaded = await loadConfig({ workspaceRoot: workspace, env, flags: {} });
    expect(loaded.config.model).toBeNull();
    expect(loaded.warnings).toEqual([]);
  });

  it('does not read a symlinked project file or .oy folder, so no parse error can quote its target', async () => {
    const { dir, workspace, env } = setup();
    const target = path.join(dir, 'credentials');
    const canary = `CANARY${Date.now()}`;
    writeFileSync(target, `${canary}=secret\n`);
    symlinkSync(target, path.join(workspace, '.oy', 'config.json'));
    const loaded = await loadConfig({ workspaceRoot: workspace, env, flags: {} });
    expect(loaded.warnings).toEqual(['.oy/config.json is a symlink; the project file is not read']);
    // Control: the same text in a real project file is an error that quotes it.
    rmSync(path.join(workspace, '.oy', 'config.json'));
    writeFileSync(path.join(workspace, '.oy', 'config.json'), `${canary}=secret\n`);
    await expect(loadConfig({ workspaceRoot: workspace, env, flags: {} })).rejects.toThrow(
      canary.slice(0, 6),
    );
    // A symlinked .oy folder is refused the same way.
    const elsewhere = path.join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, 'config.json'), `${canary}=secret\n`);
    rmSync(path.join(workspace, '.oy'), { recursive: true });
    symlinkSync(elsewhere, path.join(workspace, '.oy'));
    const viaFolder = await loadConfig({ workspaceRoot: workspace, env, flags: {} });
    expect(viaFolder.warnings).toEqual(['.oy is a symlink; the project file is not read']);
  });
});
