import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { PROJECT_ROOT, runOy } from '../support/run-oy.js';

/**
 * The realistic shop through the built CLI, as a reviewer reads its reports: the model report opens
 * with what the model reviewed, lists the hints it did not confirm, and never asks to configure a
 * model; offline with a model configured says it was offline by choice; SARIF ranks a secret in a
 * test fixture below the same in application code and never makes a hint an error.
 */
const FIXTURE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'repos', 'shop');
const MODEL = 'anthropic::claude-haiku-4-5';
let repo: string;
let fake: FakeProviderServer;

beforeAll(async () => {
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-shop-e2e-')));
  cpSync(FIXTURE, repo, { recursive: true });
  writeFileSync(path.join(repo, '.gitignore'), 'out/\n');
  mkdirSync(path.join(repo, 'src', 'integrations'));
  writeFileSync(
    path.join(repo, 'src', 'integrations', 'github.js'),
    `module.exports = { token: 'ghp_${randomBytes(18).toString('hex')}' };\n`,
  );
  writeFileSync(
    path.join(repo, 'test', 'fixtures', 'session.js'),
    `module.exports = { token: 'ghp_${randomBytes(18).toString('hex')}' };\n`,
  );
  commitAll(repo);
  fake = await startFakeProvider();
});

afterAll(async () => {
  await fake.close();
});

function audit(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runOy(['audit', ...args], { cwd: repo, env });
}

const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');

describe('the shop through the built CLI', () => {
  it('the model report opens with the transparency line and lists the hints the model did not confirm', async () => {
    // The model confirms the SQL injection only; the shell command and the rest stay hints.
    const sql = read('src/routes/products.js').split('\n');
    const line = sql.findIndex((text) => text.includes('LIKE \'%" + term')) + 1;
    fake.enqueue({
      kind: 'answer',
      text: JSON.stringify({
        findings: [
          {
            title: 'SQL injection in product search',
            severity: 'high',
            category: 'sql-injection',
            path: 'src/routes/products.js',
            line,
            end_line: line,
            evidence: sql[line - 1]!.trim(),
            impact: 'Reads any table.',
            preconditions: 'None.',
            fix: 'Bind the term.',
            confidence: 0.9,
          },
        ],
      }),
    });
    const result = await audit(
      ['--model', MODEL, '--no-cache', '--out', 'out/model.md'],
      fakeProviderEnv(fake),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('no model configured');
    const markdown = read('out/model.md');
    const lines = markdown.split('\n');
    expect(lines[0]).toBe('# Audit Issues');
    expect(lines[2]).toMatch(/^> Generated with oy /);
    expect(lines[4]).toMatch(
      /^> Reviewed by the model `anthropic::claude-haiku-4-5`: \d+ files in 1 chunk, .*Deterministic checks only \(`--scope shipping`\): tests 2, fixtures and test data 2/,
    );
    expect(markdown).not.toMatch(/configure a model/i);
    const unconfirmed = markdown.split('## Hints the model did not confirm')[1]!.split('\n## ')[0]!;
    expect(unconfirmed).toContain('### Reviewed, not confirmed');
    expect(unconfirmed).toContain('src/routes/orders.js:');
    // The confirmed place is a finding, not an unconfirmed hint.
    expect(unconfirmed).not.toContain(`src/routes/products.js:${line} `);
    expect(unconfirmed).toContain('### Not sent to the model');
    expect(unconfirmed).toMatch(/\| tests \| 1 \| test\/routes\/accounts\.test\.js:\d+ \|/);
  });

  it('offline by choice with a model configured says so, and never asks to configure one', async () => {
    const result = await audit(['--offline', '--out', 'out/offline.md'], { OY_MODEL: MODEL });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('no model configured');
    const header = read('out/offline.md').split('## Findings summary')[0]!;
    expect(header).toContain('the run was offline by choice (`--offline`)');
    expect(header).not.toMatch(/configure a model/i);
    // Control: with no model at all, the report says how to add one.
    const bare = await audit(['--out', 'out/bare.md']);
    expect(bare.stderr).toContain('no model configured');
    expect(read('out/bare.md')).toMatch(/configure a model/);
  });

  it('SARIF: the fixture secret ranks below the application one, and no hint is an error', async () => {
    const result = await audit(['--offline', '--format', 'sarif', '--out', 'out/oy.sarif']);
    expect(result.code, result.stderr).toBe(0);
    const sarif = JSON.parse(read('out/oy.sarif')) as {
      runs: {
        results: {
          ruleId: string;
          level: string;
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
        }[];
      }[];
    };
    const results = sarif.runs[0]!.results;
    const at = (uri: string, rule: string) =>
      results.find(
        (each) =>
          each.ruleId === rule && each.locations[0]!.physicalLocation.artifactLocation.uri === uri,
      );
    expect(at('src/integrations/github.js', 'oy/secret/github-token')?.level).toBe('error');
    expect(at('test/fixtures/session.js', 'oy/secret/github-token')?.level).toBe('warning');
    const hints = results.filter((each) => !each.ruleId.startsWith('oy/'));
    expect(hints.length).toBeGreaterThan(5);
    expect(hints.filter((each) => each.level === 'error')).toEqual([]);
  });
});
