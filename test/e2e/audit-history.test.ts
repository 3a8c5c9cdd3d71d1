import { randomInt } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditReport, HistorySecret } from '../../src/audit/types.js';
import {
  awsCredentialsText,
  createHistoryRepo,
  freshAwsKeyPair,
  freshGithubToken,
  type HistoryRepo,
} from '../support/history-repo.js';
import { runOy, type OyRun } from '../support/run-oy.js';

/**
 * Secrets in git history, through the built CLI: `--diff` scans the commits of the range,
 * `--history` every commit from HEAD; both gate with `--fail-on`, baseline by commit and place,
 * and never print a value. Every secret is drawn afresh on each run.
 */
const TIMEOUT_MS = 300_000;
const repos: HistoryRepo[] = [];
let cases = 0;
afterAll(() => {
  for (const repo of repos) repo.dispose();
  console.log(`audit history: ${cases} cases`);
});

function newRepo(): HistoryRepo {
  const repo = createHistoryRepo('oy-e2e-history-');
  repos.push(repo);
  repo.write('.gitignore', 'out/\n');
  return repo;
}

function audit(repo: HistoryRepo, args: string[]): Promise<OyRun> {
  return runOy(['audit', '--offline', ...args], { cwd: repo.root });
}

function read(repo: HistoryRepo, file: string): string {
  return readFileSync(path.join(repo.root, file), 'utf8');
}

/** Every value, checked against every output: the report files, stdout and stderr. */
function expectNowhere(values: string[], outputs: string[]): void {
  for (const value of values) for (const output of outputs) expect(output).not.toContain(value);
}

const keyOf = (secret: HistorySecret) =>
  `${secret.rule} ${secret.commit} ${secret.path} ${secret.line ?? '-'}`;

describe('audit --diff: the commits of the range', () => {
  it(
    'a key pair a middle commit adds and the last removes: exit 3, the commit named, the value nowhere',
    async () => {
      cases++;
      const repo = newRepo();
      repo.write('src/app.py', 'print("hello")\n');
      const base = repo.commit('base');
      repo.git('checkout', '-q', '-b', 'feature');
      repo.write('src/app.py', 'print("hello")\nprint("more")\n');
      repo.commit('first');
      const pair = freshAwsKeyPair();
      repo.write('deploy/settings.ini', awsCredentialsText(pair));
      const adding = repo.commit('add settings');
      repo.remove('deploy/settings.ini');
      repo.commit('remove settings');
      const short = adding.slice(0, 12);
      const outputs: string[] = [];
      for (const [format, out] of [
        ['json', 'out/r.json'],
        ['markdown', 'out/r.md'],
        ['sarif', 'out/r.sarif'],
      ] as const) {
        const run = await audit(repo, [
          ...['--diff', base, '--fail-on', 'high'],
          ...['--format', format, '--out', out, '--manifest', `out/${format}-ledger.json`],
        ]);
        expect(run.code, run.stderr).toBe(3);
        expect(run.stderr).toMatch(
          new RegExp(
            `^gate: \`--fail-on high\`: 2 findings .*"Secret in the git history \\(aws-[a-z-]+\\), commit ${short}" at deploy/settings\\.ini:[23]$`,
            'm',
          ),
        );
        outputs.push(read(repo, out), read(repo, `out/${format}-ledger.json`));
        outputs.push(run.stdout, run.stderr);
      }
      const report = JSON.parse(outputs[0]!) as AuditReport;
      expect(report.history).toMatchObject({ scope: 'range', ref: base, commits: 3 });
      expect(report.history?.secrets).toEqual([
        { rule: 'aws-access-key-id', commit: adding, path: 'deploy/settings.ini', line: 2 },
        { rule: 'aws-secret-access-key', commit: adding, path: 'deploy/settings.ini', line: 3 },
      ]);
      // The work tree no longer holds it: only the history scan can see it.
      expect(report.secrets).toEqual([]);
      // Per format: the report, its ledger, stdout and stderr.
      expect(outputs[4]).toContain(
        `| aws-access-key-id | \`${short}\` | deploy/settings.ini | 2 |`,
      );
      const sarif = JSON.parse(outputs[8]!) as {
        runs: { results: { ruleId: string; properties: { commit?: string } }[] }[];
      };
      expect(
        sarif.runs[0]!.results.filter((result) => result.properties.commit === adding),
      ).toHaveLength(2);
      expectNowhere([pair.id, pair.secret], outputs);
    },
    TIMEOUT_MS,
  );

  it(
    'control: the same range without the key exits 0 and scans the same commits',
    async () => {
      cases++;
      const repo = newRepo();
      repo.write('src/app.py', 'print("hello")\n');
      const base = repo.commit('base');
      repo.write('deploy/settings.ini', '[default]\nregion = eu-west-1\n');
      repo.commit('add settings');
      repo.remove('deploy/settings.ini');
      repo.commit('remove settings');
      const run = await audit(repo, ['--diff', base, '--fail-on', 'high', '--format', 'json']);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(read(repo, 'oy-audit.json')) as AuditReport;
      expect(report.history).toMatchObject({ commits: 2, secrets: [] });
    },
    TIMEOUT_MS,
  );
});

interface Plant {
  path: string;
  values: string[];
  /** The history rows it must give: rule and line, at the commit that adds it. */
  rows: { rule: string; line: number }[];
  addedAt: number;
  removedAt: number | null;
  text: string;
}

/** A secret file: an AWS pair (two rows) or a GitHub token (one), drawn now. */
function drawPlant(index: number, addedAt: number, removedAt: number | null): Plant {
  if (randomInt(2) === 0) {
    const pair = freshAwsKeyPair();
    return {
      path: `deploy/aws-${index}.ini`,
      values: [pair.id, pair.secret],
      rows: [
        { rule: 'aws-access-key-id', line: 2 },
        { rule: 'aws-secret-access-key', line: 3 },
      ],
      addedAt,
      removedAt,
      text: awsCredentialsText(pair),
    };
  }
  const token = freshGithubToken();
  return {
    path: `src/client-${index}.py`,
    values: [token],
    rows: [{ rule: 'github-token', line: 2 }],
    addedAt,
    removedAt,
    text: `import os\nTOKEN = "${token}"\n`,
  };
}

describe('audit --history: every commit reachable from HEAD', () => {
  it(
    'a 30-commit repository: every planted secret at its commit, removed ones too; a rotated one baselined',
    async () => {
      cases++;
      const COMMITS = 30;
      const repo = newRepo();
      // Six plants at distinct random commits; about half removed at a later one.
      const positions = new Set<number>();
      while (positions.size < 6) positions.add(1 + randomInt(COMMITS - 3));
      const plants = [...positions].map((addedAt, index) => {
        const isRemoved = index === 0 || randomInt(2) === 0;
        const removedAt = isRemoved ? addedAt + 1 + randomInt(COMMITS - 1 - addedAt) : null;
        return drawPlant(index, addedAt, removedAt);
      });
      // The first plant is the rotated one: removed from the code once the key was rotated.
      const rotated = plants[0]!;
      const commits: string[] = [];
      for (let index = 0; index < COMMITS; index++) {
        repo.write('src/app.py', `print(${index})\n`);
        for (const plant of plants) {
          if (plant.addedAt === index) repo.write(plant.path, plant.text);
          if (plant.removedAt === index)
            repo.write(plant.path, 'import os\nKEY = os.environ["KEY"]\n');
        }
        commits.push(repo.commit(`change ${index}`));
      }
      const expected = plants.flatMap((plant) =>
        plant.rows.map((row) => ({ ...row, commit: commits[plant.addedAt]!, path: plant.path })),
      );
      const values = plants.flatMap((plant) => plant.values);

      const first = await audit(repo, [
        ...['--history', '--fail-on', 'high', '--format', 'json', '--out', 'out/r.json'],
        ...['--write-baseline', 'out/all.json', '--manifest', 'out/ledger.json'],
      ]);
      expect(first.code, first.stderr).toBe(3);
      const report = JSON.parse(read(repo, 'out/r.json')) as AuditReport;
      expect(report.history).toMatchObject({ scope: 'all', ref: null, commits: COMMITS });
      expect(report.history!.secrets.map(keyOf).sort()).toEqual(
        expected.map((row) => keyOf(row)).sort(),
      );
      expectNowhere(values, [
        read(repo, 'out/r.json'),
        read(repo, 'out/all.json'),
        read(repo, 'out/ledger.json'),
        first.stdout,
        first.stderr,
      ]);

      // The baseline entries of the rotated key's history rows, and nothing else.
      const all = JSON.parse(read(repo, 'out/all.json')) as {
        fingerprints: { fingerprint: string; path: string; title: string }[];
      };
      const rotatedCommit = commits[rotated.addedAt]!;
      const rotatedEntries = all.fingerprints.filter(
        (entry) =>
          entry.path === rotated.path &&
          entry.title.endsWith(`commit ${rotatedCommit.slice(0, 12)}`),
      );
      expect(rotatedEntries).toHaveLength(rotated.rows.length);
      writeFileSync(
        path.join(repo.root, 'out/rotated.json'),
        JSON.stringify({ schemaVersion: 1, tool: 'oy', fingerprints: rotatedEntries }),
      );
      const second = await audit(repo, [
        ...['--history', '--fail-on', 'high', '--baseline', 'out/rotated.json'],
        ...['--format', 'json', '--out', 'out/r2.json'],
      ]);
      const stillInTree = plants
        .filter((plant) => plant.removedAt === null)
        .reduce((sum, plant) => sum + plant.rows.length, 0);
      const gated = expected.length - rotated.rows.length + stillInTree;
      expect(second.code, second.stderr).toBe(3);
      expect(second.stderr).toMatch(
        new RegExp(`^gate: \`--fail-on high\`: ${gated} findings`, 'm'),
      );
      const suppressed = (JSON.parse(read(repo, 'out/r2.json')) as AuditReport).suppressed;
      expect(suppressed).toEqual(
        rotated.rows.map((row) => ({
          ruleId: `oy/history/secret/${row.rule}`,
          path: rotated.path,
          line: row.line,
          commit: rotatedCommit,
          by: 'baseline',
        })),
      );

      // Every result baselined: the history and the work tree both pass.
      const third = await audit(repo, [
        ...['--history', '--fail-on', 'high', '--baseline', 'out/all.json'],
      ]);
      expect(third.code, third.stderr).toBe(0);
    },
    TIMEOUT_MS,
  );
});
