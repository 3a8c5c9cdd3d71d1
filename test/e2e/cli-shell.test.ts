import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runOy } from '../support/run-oy.js';

const workspace = mkdtempSync(path.join(tmpdir(), 'oy-cli-'));
writeFileSync(path.join(workspace, 'index.js'), 'module.exports = 1;\n');
const version = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

describe('the oy command line', () => {
  it('prints its version', async () => {
    const result = await runOy(['--version'], { cwd: workspace });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(version);
  });

  it('prints the top-level help', async () => {
    const result = await runOy(['--help'], { cwd: workspace });
    expect(result.code).toBe(0);
    expect(result.stdout.replace(version, '<version>')).toMatchSnapshot();
  });

  it('prints the audit help', async () => {
    const result = await runOy(['audit', '--help'], { cwd: workspace });
    expect(result.code).toBe(0);
    expect(result.stdout.replace(version, '<version>')).toMatchSnapshot();
  });

  it.each([
    [['frobnicate'], /unknown command "frobnicate"/],
    [['audit', '--format', 'pdf'], /--format must be one of markdown, sarif, json, got `pdf`/],
    [
      ['audit', '--max-chunks', '0'],
      /--max-chunks must be a whole number from 1 to 100000, got `0`/,
    ],
    [['audit', '--chunk-tokens', '12.5'], /--chunk-tokens must be a whole number/],
    [
      ['audit', '--scope', 'tests'],
      /--scope` must be one of shipping, all, got `tests`[\s\S]*\nhint: /,
    ],
    [['audit', '--max-file-bytes', 'lots'], /--max-file-bytes must be a whole number/],
    [['audit', '--no-such-flag'], /Unknown option `--noSuchFlag`|Unknown option/],
    [['audit', '--out'], /--out/],
    [['audit', '--diff=--output=x'], /--diff must name a git ref/],
    [['audit', '--cwd', '/no/such/dir'], /does not exist/],
  ])('rejects %j with exit 2 and one error line', async (args, pattern) => {
    const result = await runOy(args, { cwd: workspace });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr.split('\n')[0]).toMatch(/^error: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('names the config file and key when the user config is bad', async () => {
    const config = path.join(workspace, 'bad-config.json');
    writeFileSync(config, JSON.stringify({ audit: { maxChunks: -1 } }));
    const result = await runOy(['audit', '--dry-run'], {
      cwd: workspace,
      env: { OY_CONFIG: config },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(config);
    expect(result.stderr).toContain('audit.maxChunks');
  });

  it('shows a stack trace only with --verbose', async () => {
    const config = path.join(workspace, 'broken.json');
    writeFileSync(config, '{');
    const quiet = await runOy(['audit'], { cwd: workspace, env: { OY_CONFIG: config } });
    const verbose = await runOy(['audit', '--verbose'], {
      cwd: workspace,
      env: { OY_CONFIG: config },
    });
    expect(quiet.stderr).not.toMatch(/\n\s+at /);
    expect(verbose.stderr).toMatch(/\n\s+at /);
  });
});
