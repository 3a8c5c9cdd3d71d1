import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';

/** Typos and empty selections are usage errors with a hint, never an empty green run. */
let repo: string;
let cases = 0;

beforeEach(() => {
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-inputs-')));
  mkdirSync(path.join(repo, 'src'));
  writeFileSync(path.join(repo, 'src', 'app.js'), 'export const add = (a, b) => a + b;\n');
  writeFileSync(path.join(repo, 'notes.txt'), 'hello\n');
  commitAll(repo);
  cases++;
});

afterAll(() => console.log(`audit inputs: ${cases} cases`));

function audit(args: string[], env: Record<string, string> = {}) {
  return runOy(['audit', ...args], { cwd: repo, env });
}

describe('audit: inputs', () => {
  it.each([['./nosuchdir'], ['nosuchdir/'], ['notes.txt'], ['some-file.txt']])(
    'a path argument %s that names no directory is a usage error',
    async (word) => {
      const result = await audit(['--offline', word]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/is not a directory to audit/);
      expect(result.stderr).toMatch(/^hint: .+/m);
    },
  );

  it('control: a plain word is still a focus word, and stderr says it was taken for focus', async () => {
    const result = await audit(['--offline', 'auth']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^note: auth is not a folder here, so the words are focus words/m,
    );
    // Naming the folder first says what is meant: no note.
    const explicit = await audit(['--offline', '.', 'auth']);
    expect(explicit.code, explicit.stderr).toBe(0);
    expect(explicit.stderr).not.toMatch(/^note: /m);
  });

  it.each([['scr'], ['SRC2'], ['~/src']])(
    'a first word %s that looks like a folder here is refused with the nearest folder',
    async (word) => {
      const result = await audit(['--offline', word]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/is not a directory to audit/);
      if (!word.includes('/')) expect(result.stderr).toMatch(/did you mean src\?/);
      expect(result.stderr).toMatch(/^hint: .*oy audit \. /m);
    },
  );

  it("--include 'nosuch/**' names the glob that emptied the run", async () => {
    const result = await audit(['--offline', '--include', 'nosuch/**', '--min-coverage', '0.9']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: nothing to audit: --include 'nosuch\/\*\*'/m);
    expect(result.stderr).toMatch(/^hint: .+/m);
  });

  it.each([[['--concurrency', '0']], [['--format', 'xml']], [['--max-cost', 'abc']]])(
    'a bad value %j gets its error and a hint line',
    async (flags: string[]) => {
      const result = await audit(['--offline', ...flags]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^error: ${flags[0]} `, 'm'));
      expect(result.stderr).toMatch(/^hint: .+/m);
    },
  );

  it('--min-coverage is never met by a run that reviewed nothing', async () => {
    const empty = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-inputs-empty-')));
    const result = await runOy(['audit', '--offline', '--min-coverage', '0.5'], { cwd: empty });
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(/^gate: `--min-coverage 0\.5`: no file was reviewed/m);
  });

  it('--max-cost with a model that has no known price is refused', async () => {
    const result = await audit(['--model', 'openai::no-such-priced-model', '--max-cost', '1'], {
      OPENAI_API_KEY: 'unused',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --max-cost cannot be enforced/m);
    expect(result.stderr).toMatch(/^hint: .+/m);
  });
});
