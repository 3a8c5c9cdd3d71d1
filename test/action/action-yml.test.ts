import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexFile } from '../../src/audit/hints/index-file.js';

// No YAML library is a dependency of oy, so these checks read action.yml line by line.
const ACTION_PATH = path.join(import.meta.dirname, '..', '..', 'action.yml');
const text = await readFile(ACTION_PATH, 'utf8');
const lines = text.split('\n');

const EXPECTED_INPUTS: Record<string, string> = {
  path: '.',
  format: 'sarif',
  out: 'oy.sarif',
  model: "''",
  'fail-on': "''",
  baseline: "''",
  'extra-args': "''",
  'upload-sarif': "'true'",
  version: "''",
};

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The lines under a `key:` at the given indent, up to the next line at that indent or less. */
function blockUnder(from: readonly string[], key: string, indent: number): string[] {
  const start = from.findIndex((line) => line === `${' '.repeat(indent)}${key}:`);
  expect(start, `${key}: at indent ${indent}`).toBeGreaterThanOrEqual(0);
  const body: string[] = [];
  for (const line of from.slice(start + 1)) {
    if (line.trim() !== '' && indentOf(line) <= indent) break;
    body.push(line);
  }
  return body;
}

/** Children of a mapping block: key -> its own lines. */
function children(block: readonly string[]): Map<string, string[]> {
  const indent = Math.min(...block.filter((l) => l.trim() !== '').map(indentOf));
  const result = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of block) {
    const key = /^(\s*)([\w-]+):(.*)$/.exec(line);
    if (key && (key[1] ?? '').length === indent) {
      current = [line];
      result.set(key[2] ?? '', current);
    } else {
      current?.push(line);
    }
  }
  return result;
}

function steps(): string[][] {
  const block = blockUnder(blockUnder(lines, 'runs', 0), 'steps', 2);
  const result: string[][] = [];
  for (const line of block) {
    if (line.startsWith('    - ')) result.push([line]);
    else result.at(-1)?.push(line);
  }
  return result;
}

function field(step: readonly string[], key: string): string | undefined {
  for (const line of step) {
    const match = new RegExp(`^\\s{4}(?:- | {2})${key}:\\s*(.*)$`).exec(line);
    if (match) return match[1];
  }
  return undefined;
}

/** Every line of every `run:` script, block or inline. */
function runScripts(): string[][] {
  return steps()
    .map((step) => {
      const at = step.findIndex((line) => /^\s{4}(?:- | {2})run:/.test(line));
      if (at < 0) return undefined;
      const head = (step[at] ?? '').replace(/^\s*(?:- )?run:\s*/, '');
      if (!head.startsWith('|')) return [head];
      return step.slice(at + 1).filter((line) => line.trim() === '' || indentOf(line) > 6);
    })
    .filter((script): script is string[] => script !== undefined);
}

function auditStep(): string[] {
  const step = steps().find((s) => field(s, 'id') === 'audit');
  expect(step, 'a step with id: audit').toBeDefined();
  return step ?? [];
}

describe('action.yml', () => {
  it('is a composite action that sets up Node 20', () => {
    expect(lines).toContain('  using: composite');
    const setup = steps()[0] ?? [];
    expect(field(setup, 'uses')).toBe('actions/setup-node@v4');
    expect(setup).toContain('        node-version: 20');
  });

  it('has no tabs and only even indentation', () => {
    for (const [n, line] of lines.entries()) {
      expect(line, `line ${n + 1}`).not.toMatch(/\t/);
      expect(indentOf(line) % 2, `line ${n + 1}`).toBe(0);
    }
  });

  it('declares the inputs with their defaults, each with a description', () => {
    const inputs = children(blockUnder(lines, 'inputs', 0));
    expect([...inputs.keys()]).toEqual(Object.keys(EXPECTED_INPUTS));
    for (const [name, body] of inputs) {
      const description = body.find((line) => /^\s{4}description: \S/.test(line));
      expect(description, `${name} has a description`).toBeDefined();
      expect(body, `${name} default`).toContain(`    default: ${EXPECTED_INPUTS[name]}`);
    }
  });

  it('pastes no ${{ }} expression into any run: script', () => {
    const scripts = runScripts();
    expect(scripts.length).toBe(3);
    for (const script of scripts) {
      for (const line of script) {
        expect(line).not.toContain('${{ inputs.');
        expect(line).not.toContain('${{');
      }
    }
  });

  it('passes every input but upload-sarif to the audit script through env:', () => {
    const env = children(blockUnder(auditStep(), 'env', 6));
    const passed = [...env.values()].map(
      (body) => /\$\{\{ inputs\.([\w-]+) \}\}/.exec(body[0] ?? '')?.[1],
    );
    expect(passed.sort()).toEqual(
      Object.keys(EXPECTED_INPUTS)
        .filter((name) => name !== 'upload-sarif')
        .sort(),
    );
  });

  it('builds its own checkout only when no version is given, and only on a cache miss', () => {
    const named = (name: string) => {
      const step = steps().find((candidate) => field(candidate, 'name') === name);
      expect(step, name).toBeDefined();
      return step ?? [];
    };
    const key = named("Fingerprint oy's sources");
    const cache = named("Restore oy's build");
    const build = named("Build oy from the action's checkout");
    expect(field(key, 'if')).toBe("inputs.version == ''");
    expect(field(cache, 'if')).toBe("inputs.version == ''");
    expect(field(cache, 'uses')).toBe('actions/cache@v4');
    expect(cache).toContain('        key: ${{ steps.build-key.outputs.key }}');
    expect(cache).toContain('          ${{ github.action_path }}/node_modules');
    expect(cache).toContain('          ${{ github.action_path }}/dist');
    expect(field(build, 'if')).toBe(
      "inputs.version == '' && steps.build-cache.outputs.cache-hit != 'true'",
    );
    expect(build.join('\n')).toContain('cd "$GITHUB_ACTION_PATH"');
    // Installs without running dependency scripts, builds, then keeps only what oy runs with.
    expect(build.join('\n')).toMatch(
      /npm ci --ignore-scripts .*\n\s*npm run build\n\s*npm prune --omit=dev --ignore-scripts/,
    );
  });

  it('keys the build cache on every file the build is made from', async () => {
    const keyStep = steps().find((step) => field(step, 'id') === 'build-key') ?? [];
    const script = keyStep
      .slice(keyStep.findIndex((line) => line.trim() === 'run: |') + 1)
      .map((line) => line.slice(8))
      .join('\n');
    const run = async (dir: string) => {
      const output = path.join(dir, 'out');
      await writeFile(output, '');
      await promisify(execFile)(
        'bash',
        ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script],
        {
          env: {
            PATH: '/usr/bin:/bin',
            GITHUB_ACTION_PATH: dir,
            GITHUB_OUTPUT: output,
            RUNNER_OS: 'Linux',
          },
        },
      );
      return readFile(output, 'utf8');
    };
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oy-action-key-'));
    for (const folder of ['bin', 'src/a']) await mkdir(path.join(dir, folder), { recursive: true });
    for (const file of [
      'bin/oy.js',
      'src/a/b.ts',
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
    ])
      await writeFile(path.join(dir, file), file);
    const first = await run(dir);
    expect(first).toMatch(/^key=oy-action-Linux-node20-[0-9a-f]{32}\n$/);
    expect(await run(dir)).toBe(first);
    await writeFile(path.join(dir, 'src/a/b.ts'), 'changed');
    expect(await run(dir)).not.toBe(first);
    await rm(dir, { recursive: true, force: true });
  });

  it('uploads SARIF with category oy, also after a failed gate, only for sarif with upload on', () => {
    const upload = steps().at(-1) ?? [];
    expect(field(upload, 'uses')).toBe('github/codeql-action/upload-sarif@v3');
    const condition = field(upload, 'if') ?? '';
    expect(condition).toMatch(/^always\(\) && /);
    expect(condition).toContain("inputs.upload-sarif == 'true'");
    expect(condition).toContain("inputs.format == 'sarif'");
    expect(condition).toContain("steps.audit.outputs.report != ''");
    expect(upload).toContain('        category: oy');
    expect(upload).toContain('        sarif_file: ${{ steps.audit.outputs.report }}');
  });

  it("raises no ci/ hints in oy's own index", () => {
    const hints = indexFile({ path: 'action.yml', text });
    expect(hints.filter((hint) => hint.ruleId.startsWith('ci/'))).toEqual([]);
    expect(hints).toEqual([]);
  });
});

describe('the audit step script', () => {
  const execFileAsync = promisify(execFile);
  let tmp: string;
  let workspace: string;
  let actionPath: string;

  // Stands in for bin/oy.js: records its arguments, writes the report if asked, exits as told.
  const FAKE_OY = `
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
fs.writeFileSync(process.env.FAKE_ARGV, JSON.stringify(args));
const value = (flag) => args.find((a) => a.startsWith(flag + '=')).slice(flag.length + 1);
if (process.env.FAKE_WRITE === '1') fs.writeFileSync(path.join(value('--cwd'), value('--out')), '{}');
process.exit(Number(process.env.FAKE_EXIT));
`;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'oy-action-'));
    workspace = path.join(tmp, 'workspace');
    actionPath = path.join(tmp, 'action');
    await mkdir(path.join(workspace, 'my dir'), { recursive: true });
    await mkdir(path.join(actionPath, 'bin'), { recursive: true });
    await writeFile(path.join(actionPath, 'bin', 'oy.js'), FAKE_OY);
  });

  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  async function runAuditScript(inputs: Record<string, string>, fake: Record<string, string>) {
    const audit = auditStep();
    const script = audit.slice(audit.findIndex((line) => line.trim() === 'run: |') + 1);
    const scriptPath = path.join(tmp, 'audit.sh');
    await writeFile(scriptPath, script.map((line) => line.slice(8)).join('\n'));
    const outputPath = path.join(tmp, 'github-output');
    await writeFile(outputPath, '');
    const env: NodeJS.ProcessEnv = {
      PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_OUTPUT: outputPath,
      FAKE_ARGV: path.join(tmp, 'argv.json'),
      ...fake,
    };
    for (const [name, value] of Object.entries(inputs)) {
      env[`OY_INPUT_${name.toUpperCase().replaceAll('-', '_')}`] = value;
    }
    // The flags GitHub runs `shell: bash` with.
    const exitCode = await execFileAsync(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', scriptPath],
      { cwd: workspace, env },
    ).then(
      () => 0,
      (error: { code?: number }) => error.code ?? -1,
    );
    const argv = JSON.parse(await readFile(path.join(tmp, 'argv.json'), 'utf8')) as string[];
    const outputs = Object.fromEntries(
      (await readFile(outputPath, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    ) as Record<string, string>;
    return { exitCode, argv, outputs };
  }

  const DEFAULTS = {
    path: '.',
    format: 'sarif',
    out: 'oy.sarif',
    model: '',
    'fail-on': '',
    baseline: '',
    'extra-args': '',
    version: '',
  };

  it('runs the audit with the defaults and reports the SARIF file', async () => {
    const run = await runAuditScript(DEFAULTS, { FAKE_EXIT: '0', FAKE_WRITE: '1' });
    expect(run.argv).toEqual(['audit', '--cwd=.', '--format=sarif', '--out=oy.sarif']);
    expect(run).toMatchObject({ exitCode: 0, outputs: { report: './oy.sarif', 'exit-code': '0' } });
  });

  it('passes hostile inputs as single arguments, never as code', async () => {
    const run = await runAuditScript(
      {
        ...DEFAULTS,
        path: 'my dir',
        out: '$(touch pwned).sarif',
        model: '-x; touch pwned2',
        'fail-on': 'high',
        baseline: '.oy/base line.json',
        'extra-args': '--max-cost 5 `touch pwned3` *',
      },
      { FAKE_EXIT: '3', FAKE_WRITE: '1' },
    );
    expect(run.argv).toEqual([
      'audit',
      '--cwd=my dir',
      '--format=sarif',
      '--out=$(touch pwned).sarif',
      '--model=-x; touch pwned2',
      '--fail-on=high',
      '--baseline=.oy/base line.json',
      '--max-cost',
      '5',
      '`touch',
      'pwned3`',
      '*',
    ]);
    expect(await readdir(workspace)).toEqual(['my dir']);
    // The gate's exit code is the step's, and the report is still there to upload.
    expect(run.exitCode).toBe(3);
    expect(run.outputs).toEqual({ report: 'my dir/$(touch pwned).sarif', 'exit-code': '3' });
  });

  it('gives no report output when oy wrote none', async () => {
    const run = await runAuditScript(DEFAULTS, { FAKE_EXIT: '2', FAKE_WRITE: '0' });
    expect(run.exitCode).toBe(2);
    expect(run.outputs).toEqual({ 'exit-code': '2' });
  });
});
