import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS, GLOBAL_FLAGS } from '../../src/cli/flags/command-table.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy, type OyRun } from '../support/run-oy.js';

/**
 * One bad value for every flag of `oy audit`, `run`, `chat`, `model`, `doctor` and `sessions`,
 * through the built CLI: each ends with exit 2 (doctor: a failed check, exit 1), an `error:` line
 * that names what was wrong and a `hint:` line under it. The table must name every flag the
 * command table gives each command, so a new flag without a case fails here. Parsing alone is
 * covered value by value in test/cli/flags/bad-flag-values.test.ts; these add what only a run
 * finds (paths, refs, sessions, model ids, empty selections).
 */
const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-bad-flags-')));
writeFileSync(path.join(workspace, 'index.js'), 'module.exports = 1;\n');
commitAll(workspace);
const notADirectory = path.join(workspace, 'index.js');

interface Case {
  args: string[];
  /** The error line. */
  error: RegExp;
  /** `oy doctor` reports a bad value as a failed check on stdout, exit 1. */
  isCheck?: boolean;
}

/** A bad value of each global flag, for a command run as `prefix`. */
function globalCases(prefix: string[], isDoctor = false): Record<string, Case> {
  const switchCase = (name: string): Case => ({
    args: [...prefix, `--${name}=yes`],
    error: new RegExp(`^error: --${name} takes no value, got \`yes\``),
  });
  return {
    json: switchCase('json'),
    quiet: switchCase('quiet'),
    verbose: switchCase('verbose'),
    'no-color': switchCase('no-color'),
    help: switchCase('help'),
    version: switchCase('version'),
    cwd: {
      args: [...prefix, '--cwd', notADirectory],
      error: /--cwd ".*index\.js" is not a directory/,
      isCheck: isDoctor,
    },
    model: {
      args: [...prefix, '--model', 'antropic::claude-haiku-4-5'],
      error: /model id "antropic::claude-haiku-4-5"/,
      isCheck: isDoctor,
    },
  };
}

const usage = (args: string[], error: RegExp): Case => ({ args, error });

const CASES: Record<string, Record<string, Case>> = {
  audit: {
    ...globalCases(['audit', '--offline']),
    out: usage(
      ['audit', '--out', '../x.md'],
      /^error: --out "\.\.\/x\.md" is outside the workspace/,
    ),
    format: usage(
      ['audit', '--format', 'xml'],
      /^error: --format must be one of markdown, sarif, json, got `xml`/,
    ),
    manifest: usage(
      ['audit', '--manifest', '.git/m.json'],
      /^error: --manifest "\.git\/m\.json" is inside \.git\//,
    ),
    include: usage(
      ['audit', '--offline', '--include', 'nosuch/**'],
      /^error: nothing to audit: --include 'nosuch\/\*\*' left no file/,
    ),
    exclude: usage(
      ['audit', '--offline', '--exclude', '**'],
      /^error: nothing to audit: --exclude '\*\*' left no file/,
    ),
    diff: usage(
      ['audit', '--offline', '--diff', 'nosuchref'],
      /^error: `--diff` needs a git ref that names a commit, got `nosuchref`/,
    ),
    'max-file-bytes': usage(
      ['audit', '--max-file-bytes', '0'],
      /^error: --max-file-bytes must be a whole number from 1 to \d+, got `0`/,
    ),
    'chunk-tokens': usage(
      ['audit', '--chunk-tokens', '999'],
      /^error: --chunk-tokens must be a whole number from 1000 to \d+, got `999`/,
    ),
    'max-chunks': usage(
      ['audit', '--max-chunks', '-1'],
      /^error: --max-chunks must be a whole number from 1 to 100000, got `-1`/,
    ),
    scope: usage(
      ['audit', '--scope', 'everything'],
      /^error: --scope must be one of shipping, all, got `everything`/,
    ),
    riskiest: usage(
      ['audit', '--riskiest', '2.5'],
      /^error: --riskiest must be a whole number from 1 to \d+, got `2\.5`/,
    ),
    shard: usage(['audit', '--shard', '4/3'], /^error: --shard must be K\/N with whole numbers/),
    history: usage(['audit', '--history=all'], /^error: --history takes no value, got `all`/),
    batch: usage(['audit', '--batch=yes'], /^error: --batch takes no value, got `yes`/),
    'batch-timeout': usage(
      ['audit', '--batch', '--batch-timeout', 'soon'],
      /^error: --batch-timeout must be/,
    ),
    'dry-run': usage(['audit', '--dry-run=1'], /^error: --dry-run takes no value, got `1`/),
    offline: usage(['audit', '--offline=no'], /^error: --offline takes no value, got `no`/),
    concurrency: usage(
      ['audit', '--concurrency', '0'],
      /^error: --concurrency must be a whole number from 1 to 64, got `0`/,
    ),
    'max-cost': usage(
      ['audit', '--max-cost', 'abc'],
      /^error: --max-cost must be an amount of US dollars, a number above 0/,
    ),
    'fail-on': usage(
      ['audit', '--fail-on', 'severe'],
      /^error: --fail-on must be one of critical, high, medium, low, info, got `severe`/,
    ),
    baseline: usage(
      ['audit', '--offline', '--baseline', 'nosuch.json'],
      /^error: `--baseline` file not found: .*nosuch\.json/,
    ),
    'write-baseline': usage(
      ['audit', '--offline', '--write-baseline', '../b.json'],
      /^error: --write-baseline "\.\.\/b\.json" is outside the workspace/,
    ),
    'min-coverage': usage(
      ['audit', '--min-coverage', '1.5'],
      /^error: --min-coverage must be a share of the files, a number from 0 to 1, got `1\.5`/,
    ),
    'allow-partial': usage(
      ['audit', '--allow-partial=1'],
      /^error: --allow-partial takes no value/,
    ),
    force: usage(['audit', '--force=1'], /^error: --force takes no value/),
    'no-cache': usage(['audit', '--no-cache=1'], /^error: --no-cache takes no value/),
    'no-submodules': usage(
      ['audit', '--no-submodules=1'],
      /^error: --no-submodules takes no value/,
    ),
  },
  run: {
    ...globalCases(['run', 'do it']),
    mode: usage(
      ['run', '--mode', 'reckless', 'x'],
      /^error: --mode must be one of plan, ask, edit, auto, got `reckless`/,
    ),
    'max-turns': usage(
      ['run', '--max-turns', '0', 'x'],
      /^error: --max-turns must be a whole number from 1 to \d+, got `0`/,
    ),
    'max-cost': usage(
      ['run', '--max-cost', '-2', 'x'],
      /^error: --max-cost must be an amount of US dollars/,
    ),
    out: usage(
      ['run', '--out', '/etc/answer.md', 'x'],
      /^error: --out "\/etc\/answer\.md" is outside the workspace/,
    ),
    continue: usage(['run', '--continue', 'x'], /^error: no saved session for this workspace/),
    resume: usage(
      ['run', '--resume', 'nosuch', 'x'],
      /^error: no saved session for this workspace/,
    ),
    'no-session': usage(
      ['run', '--no-session', '--continue', 'x'],
      /^error: --no-session cannot be used with --continue or --resume/,
    ),
    replay: usage(['run', '--replay', 'nosuch'], /^error: no saved session for this workspace/),
  },
  chat: {
    ...globalCases(['chat']),
    mode: usage(
      ['chat', '--mode', 'reckless'],
      /^error: --mode must be one of plan, ask, edit, auto, got `reckless`/,
    ),
    continue: usage(['chat', '--continue=1'], /^error: --continue takes no value/),
    resume: usage(['chat', '--resume', 'nosuch'], /^error: no saved session for this workspace/),
  },
  model: {
    ...globalCases(['model']),
    '<id>': usage(['model', 'claude-haiku-4-5::x::y'], /^error: model id/),
  },
  doctor: {
    ...globalCases(['doctor'], true),
    online: usage(['doctor', '--online=1'], /^error: --online takes no value/),
  },
  sessions: {
    ...globalCases(['sessions']),
    '<action>': usage(['sessions', 'delete'], /^error: unknown oy sessions action "delete"/),
    '<session>': usage(['sessions', 'show'], /^error: oy sessions show needs a session/),
  },
};

let cases = 0;
afterAll(() => console.log(`bad flag values through the CLI: ${cases} cases`));

/** The flags the command table gives a command, plus its positional words where they can be wrong. */
function expectedNames(name: string): string[] {
  const command = COMMANDS.find((each) => each.name === name);
  const positionals: Record<string, string[]> = {
    model: ['<id>'],
    sessions: ['<action>', '<session>'],
  };
  return [
    ...GLOBAL_FLAGS.map((flag) => flag.name),
    ...(command?.flags ?? []).map((flag) => flag.name),
    ...(positionals[name] ?? []),
  ].sort();
}

/** What is wrong with one run, or null: the error line, the hint line under it, the exit code. */
function judge(test: Case, run: OyRun): string | null {
  const text = test.isCheck ? run.stdout : run.stderr;
  const lines = text.split('\n');
  const at = lines.findIndex((line) =>
    test.isCheck ? test.error.test(line) : line.startsWith('error: '),
  );
  const expectedCode = test.isCheck ? 1 : 2;
  if (run.code !== expectedCode) return `exit ${run.code}, not ${expectedCode}:\n${text}`;
  if (at === -1) return `no error line:\n${text}`;
  if (!test.error.test(lines[at] ?? '')) return `error line ${JSON.stringify(lines[at])}`;
  const hint = lines[at + 1] ?? '';
  if (!/^\s*hint: \S/.test(hint)) return `no hint under ${JSON.stringify(lines[at])}`;
  if (/\n\s+at /.test(text)) return 'a stack trace';
  return null;
}

describe('every bad flag value through the built CLI', () => {
  it.each(Object.keys(CASES))('oy %s: the table names every flag', (name) => {
    expect(Object.keys(CASES[name]!).sort()).toEqual(expectedNames(name));
  });

  it.each(Object.keys(CASES))(
    'oy %s: each bad value gets a precise error and a hint line',
    async (name) => {
      const limit = pLimit(3);
      const entries = Object.entries(CASES[name]!);
      const problems = await Promise.all(
        entries.map(([flag, test]) =>
          limit(async () => {
            cases++;
            // No model and no TTY: nothing here may reach a provider or wait for input.
            const run = await runOy(test.args, { cwd: workspace, env: { OY_MODEL: '' } });
            const problem = judge(test, run);
            return problem === null ? null : `${flag} (${test.args.join(' ')}): ${problem}`;
          }),
        ),
      );
      expect(problems.filter((each) => each !== null)).toEqual([]);
    },
  );
});
