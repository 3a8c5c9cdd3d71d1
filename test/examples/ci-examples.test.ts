import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AUDIT_FLAGS } from '../../src/cli/flags/audit-flags.js';
import { GLOBAL_FLAGS } from '../../src/cli/flags/command-table.js';
import { makeCiShims, PACKAGE_NAME, PACKAGE_VERSION } from '../support/ci-shims.js';
import { PROJECT_ROOT } from '../support/run-oy.js';

/**
 * The CI files under examples/ are what users copy: each parses, names real steps, inputs and
 * permissions, and its audit script runs as written against a fixture repository with the built
 * CLI (npx is a shim that refuses any package but this one).
 */
const EXAMPLES = path.join(PROJECT_ROOT, 'examples');
type Mapping = Record<string, unknown>;
let cases = 0;

afterAll(() => console.log(`CI examples: ${cases} cases`));

function readYaml(file: string): Mapping {
  return parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Mapping;
}

interface Step {
  name?: string;
  uses?: string;
  if?: string;
  run?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
}

const KNOWN_FLAGS = new Set([...AUDIT_FLAGS, ...GLOBAL_FLAGS].map((flag) => `--${flag.name}`));

/**
 * Every `--flag` a script gives oy is one oy's audit command knows: the words of the lines that
 * build oy's arguments (`args=(…)`, `args+=(…)`, `set -- …`), not npx's or git's own.
 */
function expectKnownFlags(script: string): void {
  const argumentParts = script
    .split(/\n|;|\bthen\b/)
    .filter((part) => /^\s*(?:args\+?=\(|set -- )/.test(part));
  const flags = argumentParts.flatMap((part) =>
    [...part.matchAll(/(?<![\w-])--[a-z][\w-]*/g)].map((match) => match[0]),
  );
  expect(flags.length).toBeGreaterThan(0);
  for (const flag of flags) expect(KNOWN_FLAGS, flag).toContain(flag);
}

let repo: string;
let origin: string;

/** A repository with a main branch on its origin and a feature branch checked out. */
function makeRepo(): void {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', '-c', 'commit.gpgsign=false', ...args],
      { cwd, stdio: 'pipe' },
    );
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-examples-')));
  origin = path.join(base, 'origin.git');
  repo = path.join(base, 'work');
  mkdirSync(repo);
  git(base, 'init', '-q', '--bare', '-b', 'main', origin);
  git(repo, 'init', '-q', '-b', 'main');
  mkdirSync(path.join(repo, 'src'));
  writeFileSync(path.join(repo, 'src', 'app.js'), 'export const add = (a, b) => a + b;\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  git(repo, 'remote', 'add', 'origin', origin);
  git(repo, 'push', '-q', 'origin', 'main');
  git(repo, 'fetch', '-q', 'origin');
  git(repo, 'checkout', '-q', '-b', 'feature');
  writeFileSync(path.join(repo, 'src', 'more.js'), 'export const sub = (a, b) => a - b;\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'feature');
}

/** Adds a commit with a committed token, drawn afresh: the gate must fail on it. */
function commitToken(): void {
  const token = `ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
  writeFileSync(path.join(repo, 'src', 'config.js'), `export const token = '${token}';\n`);
  execFileSync('git', ['add', '-A'], { cwd: repo });
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'token'],
    { cwd: repo },
  );
}

function runScript(shell: string, script: string, env: Record<string, string>) {
  cases++;
  const shims = makeCiShims();
  const cache = mkdtempSync(path.join(tmpdir(), 'oy-examples-cache-'));
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      shell,
      shell === 'bash'
        ? ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script]
        : ['-c', script],
      {
        cwd: repo,
        env: {
          PATH: `${shims}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
          HOME: process.env.HOME,
          XDG_CACHE_HOME: cache,
          XDG_STATE_HOME: process.env.XDG_STATE_HOME,
          XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME,
          NO_COLOR: '1',
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

describe('examples/github/oy-audit.yml', () => {
  const workflow = readYaml('github/oy-audit.yml');
  const jobs = workflow.jobs as Record<string, { 'runs-on': string; steps: Step[] }>;
  const steps = jobs.audit?.steps ?? [];
  const step = (predicate: (candidate: Step) => boolean) => {
    const found = steps.filter(predicate);
    expect(found).toHaveLength(1);
    return found[0]!;
  };
  const audit = step((candidate) => candidate.name === 'Audit');

  it('runs on pushes to main and on pull requests, with the permissions SARIF upload needs', () => {
    expect(workflow.on).toEqual({ push: { branches: ['main'] }, pull_request: null });
    expect(workflow.permissions).toEqual({
      contents: 'read',
      'security-events': 'write',
      actions: 'read',
    });
    expect(jobs.audit?.['runs-on']).toBe('ubuntu-latest');
  });

  it('checks out the whole history and sets up Node 20', () => {
    expect(step((s) => s.uses === 'actions/checkout@v4').with).toEqual({ 'fetch-depth': 0 });
    expect(step((s) => s.uses === 'actions/setup-node@v4').with).toEqual({ 'node-version': 20 });
  });

  it("caches oy's folder, and only runs that are not pull requests save it", () => {
    const restoreOnly = step((s) => s.uses === 'actions/cache/restore@v4');
    const save = step((s) => s.uses === 'actions/cache@v4');
    expect(restoreOnly.if).toBe("github.event_name == 'pull_request'");
    expect(save.if).toBe("github.event_name != 'pull_request'");
    for (const cache of [restoreOnly, save]) expect(cache.with?.path).toBe('~/.cache/oy');
    expect(restoreOnly.with?.key).toBe(save.with?.key);
  });

  it('passes workflow values to the script through env:, never pasted into it', () => {
    expect(audit.run).not.toContain('${{');
    expect(audit.env).toEqual({
      OY_MODEL: '${{ vars.OY_MODEL }}',
      ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}',
      BASE_REF: '${{ github.base_ref }}',
    });
    expectKnownFlags(audit.run ?? '');
    expect(audit.run).toContain(`npx --yes ${PACKAGE_NAME}@`);
  });

  it('uploads the SARIF the audit wrote, also after a failed gate', () => {
    const upload = step((s) => s.uses === 'github/codeql-action/upload-sarif@v3');
    const out = /--out (\S+)/.exec(audit.run ?? '')?.[1];
    expect(upload.with).toEqual({ sarif_file: out, category: 'oy' });
    expect(upload.if).toBe(`always() && hashFiles('${out}') != ''`);
  });

  it('the audit script passes on a clean pull request and fails the gate on a committed token', async () => {
    makeRepo();
    const clean = await runScript('bash', audit.run ?? '', { BASE_REF: 'main', OY_MODEL: '' });
    expect(clean.code, clean.stderr).toBe(0);
    expect(existsSync(path.join(repo, 'oy.sarif'))).toBe(true);
    commitToken();
    const gated = await runScript('bash', audit.run ?? '', { BASE_REF: 'main', OY_MODEL: '' });
    expect(gated.code, gated.stderr).toBe(3);
  });

  it('the audit script runs on a push, with no base ref', async () => {
    makeRepo();
    const run = await runScript('bash', audit.run ?? '', { BASE_REF: '', OY_MODEL: '' });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(repo, 'oy.sarif'), 'utf8'))).toMatchObject({
      version: '2.1.0',
    });
  });
});

describe('examples/github/oy-audit-matrix.yml', () => {
  const workflow = readYaml('github/oy-audit-matrix.yml');
  type Job = {
    'runs-on': string;
    needs?: string;
    permissions?: Mapping;
    strategy?: { 'fail-fast': boolean; matrix: { shard: number[] } };
    steps: Step[];
  };
  const jobs = workflow.jobs as Record<string, Job>;
  const shardCount = Number((workflow.env as Record<string, unknown>).SHARDS);
  const stepOf = (job: Job | undefined, predicate: (candidate: Step) => boolean) => {
    const found = (job?.steps ?? []).filter(predicate);
    expect(found).toHaveLength(1);
    return found[0]!;
  };
  const shardStep = stepOf(jobs.audit, (s) => s.name === 'Audit one shard');
  const mergeStep = stepOf(jobs.merge, (s) => s.name === 'Merge');

  it('runs one shard per matrix entry, SHARDS of them, and the merge after all of them', () => {
    expect(shardCount).toBe(3);
    expect(jobs.audit?.strategy).toEqual({
      'fail-fast': false,
      matrix: { shard: Array.from({ length: shardCount }, (_, index) => index + 1) },
    });
    expect(jobs.merge?.needs).toBe('audit');
    for (const job of [jobs.audit, jobs.merge]) expect(job?.['runs-on']).toBe('ubuntu-latest');
  });

  it('gives the shard jobs read access only, and the merge job what SARIF upload needs', () => {
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(jobs.audit?.permissions).toBeUndefined();
    expect(jobs.merge?.permissions).toEqual({
      contents: 'read',
      'security-events': 'write',
      actions: 'read',
    });
  });

  it('uploads each shard report as its own artifact and downloads them all for the merge', () => {
    const out = /--out "([^"]+)"/.exec(shardStep.run ?? '')?.[1];
    expect(out).toBe('oy-shard-$SHARD.json');
    const upload = stepOf(jobs.audit, (s) => s.uses === 'actions/upload-artifact@v4');
    expect(upload.with).toEqual({
      name: 'oy-shard-${{ matrix.shard }}',
      path: 'oy-shard-${{ matrix.shard }}.json',
      'if-no-files-found': 'error',
    });
    const download = stepOf(jobs.merge, (s) => s.uses === 'actions/download-artifact@v4');
    expect(download.with).toEqual({
      pattern: 'oy-shard-*',
      path: 'oy-shards',
      'merge-multiple': true,
    });
    expect(mergeStep.run).toContain('oy-shards/oy-shard-*.json');
  });

  it('passes workflow values to the scripts through env:, never pasted into them', () => {
    for (const step of [shardStep, mergeStep]) {
      expect(step.run).not.toContain('${{');
      expectKnownFlags(step.run ?? '');
      expect(step.run).toContain(`npx --yes ${PACKAGE_NAME}@`);
    }
    expect(shardStep.env).toEqual({
      OY_MODEL: '${{ vars.OY_MODEL }}',
      ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}',
      SHARD: '${{ matrix.shard }}',
    });
    expect(mergeStep.env).toEqual({
      OY_MODEL: '${{ vars.OY_MODEL }}',
      ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}',
    });
  });

  it('uploads the SARIF the merge wrote, also after a failed gate', () => {
    const upload = stepOf(jobs.merge, (s) => s.uses === 'github/codeql-action/upload-sarif@v3');
    const out = /--out (\S+)/.exec(mergeStep.run ?? '')?.[1];
    expect(upload.with).toEqual({ sarif_file: out, category: 'oy' });
    expect(upload.if).toBe(`always() && hashFiles('${out}') != ''`);
  });

  /** Each shard as its runner would run it, its report then moved out as the artifact upload does. */
  async function runShardsAndMerge() {
    // The artifact store: outside the checkout, as each runner's own workspace is.
    const artifacts = mkdtempSync(path.join(tmpdir(), 'oy-examples-artifacts-'));
    for (let shard = 1; shard <= shardCount; shard++) {
      const run = await runScript('bash', shardStep.run ?? '', {
        OY_MODEL: '',
        SHARD: String(shard),
        SHARDS: String(shardCount),
      });
      expect(run.code, run.stderr).toBe(0);
      const report = `oy-shard-${shard}.json`;
      writeFileSync(path.join(artifacts, report), readFileSync(path.join(repo, report)));
      rmSync(path.join(repo, report));
    }
    // The merge job's checkout holds the downloaded reports only.
    cpSync(artifacts, path.join(repo, 'oy-shards'), { recursive: true });
    return runScript('bash', mergeStep.run ?? '', { OY_MODEL: '' });
  }

  it('the shard and merge scripts pass on a clean repository and the merge gates on a committed token', async () => {
    makeRepo();
    const clean = await runShardsAndMerge();
    expect(clean.code, clean.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(repo, 'oy.sarif'), 'utf8'))).toMatchObject({
      version: '2.1.0',
    });
    rmSync(path.join(repo, 'oy-shards'), { recursive: true });
    rmSync(path.join(repo, 'oy.sarif'));
    commitToken();
    const gated = await runShardsAndMerge();
    expect(gated.code, gated.stderr).toBe(3);
    expect(gated.stderr).toContain('gate: ');
  }, 300_000);
});

describe('examples/gitlab/.gitlab-ci.yml', () => {
  const pipeline = readYaml('gitlab/.gitlab-ci.yml');
  const job = pipeline['oy-audit'] as {
    image: string;
    variables: Record<string, string>;
    rules: { if: string; variables: Record<string, string> }[];
    cache: { key: string; policy: string; paths: string[] };
    script: string[];
    artifacts: { when: string; paths: string[] };
  };

  it('runs on merge requests and the default branch; only the default branch writes the cache', () => {
    expect(job.image).toBe('node:20');
    expect(job.rules).toEqual([
      {
        if: "$CI_PIPELINE_SOURCE == 'merge_request_event'",
        variables: { OY_CACHE_POLICY: 'pull' },
      },
      {
        if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
        variables: { OY_CACHE_POLICY: 'pull-push' },
      },
    ]);
    expect(job.cache.policy).toBe('$OY_CACHE_POLICY');
    expect(job.cache.paths).toEqual(['.cache/oy']);
    expect(job.variables.XDG_CACHE_HOME).toBe('$CI_PROJECT_DIR/.cache');
  });

  it('keeps the report as an artifact whether the job passes or fails', () => {
    const out = /--out (\S+)/.exec(job.script.join('\n'))?.[1];
    expect(job.artifacts).toEqual({ when: 'always', paths: [out] });
  });

  it('the script passes on a clean merge request and fails the gate on a committed token', async () => {
    makeRepo();
    const script = job.script.join('\n');
    expectKnownFlags(script);
    const env = { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_PROJECT_DIR: repo };
    const clean = await runScript('sh', script, env);
    expect(clean.code, clean.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(repo, 'oy-audit.json'), 'utf8'))).toMatchObject({
      schemaVersion: 1,
    });
    commitToken();
    const gated = await runScript('sh', script, env);
    expect(gated.code, gated.stderr).toBe(3);
  });
});

describe('package names in the docs', () => {
  it(`the shims accept this package (${PACKAGE_NAME}@${PACKAGE_VERSION}) and refuse others`, async () => {
    makeRepo();
    const own = await runScript('sh', `npx --yes ${PACKAGE_NAME}@${PACKAGE_VERSION} --version`, {});
    expect(own.code, own.stderr).toBe(0);
    const stranger = await runScript('sh', 'npx --yes oy-cli@1 --version', {});
    expect(stranger.code).toBe(99);
  });
});
