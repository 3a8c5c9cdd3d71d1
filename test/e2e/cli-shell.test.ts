import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll } from '../support/git-fixture.js';
import { PROJECT_ROOT, runOy } from '../support/run-oy.js';

const workspace = mkdtempSync(path.join(tmpdir(), 'oy-cli-'));
writeFileSync(path.join(workspace, 'index.js'), 'module.exports = 1;\n');
const gitWorkspace = mkdtempSync(path.join(tmpdir(), 'oy-cli-git-'));
writeFileSync(path.join(gitWorkspace, 'index.js'), 'module.exports = 1;\n');
commitAll(gitWorkspace);
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

  it('prints the report help', async () => {
    const result = await runOy(['report', '--help'], { cwd: workspace });
    expect(result.code).toBe(0);
    expect(result.stdout.replace(version, '<version>')).toMatchSnapshot();
  });

  it('oy help and oy help <command> print the same text as --help', async () => {
    const [help, flagHelp, auditHelp, auditFlagHelp] = await Promise.all([
      runOy(['help'], { cwd: workspace }),
      runOy(['--help'], { cwd: workspace }),
      runOy(['help', 'audit'], { cwd: workspace }),
      runOy(['audit', '--help'], { cwd: workspace }),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(flagHelp.stdout);
    expect(auditHelp.code).toBe(0);
    expect(auditHelp.stdout).toBe(auditFlagHelp.stdout);
    expect(auditHelp.stdout).toContain('--max-chunks <n>');
    // A negated switch has no default to show, and true defaults come from the table.
    expect(auditHelp.stdout).not.toMatch(/--no-\S+.*\(default: true\)/);
    expect(auditHelp.stdout).toMatch(/--max-chunks <n> +.*\(default: 80\)/);
  });

  // Every bad value of every flag is tested in-process (test/cli/flags); these go through the CLI.
  it.each([
    [['chta'], /^error: unknown command "chta"[\s\S]*did you mean oy chat\?/],
    [['help', 'nosuch'], /^error: unknown command "nosuch"/],
    [
      ['audit', '--max-chunks', '-1'],
      /^error: --max-chunks must be a whole number from 1 to 100000, got `-1`/,
    ],
    [
      ['audit', '--concurrency', '0x10'],
      /^error: --concurrency must be a whole number from 1 to 64, got `0x10`/,
    ],
    [['audit', '--no-such-flag'], /^error: unknown flag --no-such-flag for oy audit/],
    [['audit', '--out'], /^error: --out needs a value/],
    [['audit', '--diff=--output=x'], /^error: --diff must name a git ref/],
    [
      ['audit', '--offline', '--cwd', gitWorkspace, '--diff', 'nosuchref'],
      /^error: `--diff` needs a git ref that names a commit, got `nosuchref`/,
    ],
    [['audit', '--cwd', '/no/such/dir'], /does not exist/],
  ])('rejects %j with exit 2, one error line and a hint', async (args, pattern) => {
    const result = await runOy(args, { cwd: workspace });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr.split('\n')[0]).toMatch(/^error: /);
    expect(result.stderr.split('\n')[1]).toMatch(/^hint: \S/);
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
