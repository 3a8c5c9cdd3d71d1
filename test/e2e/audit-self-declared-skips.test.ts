import { randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';
import { createSecretFactory } from '../support/secret-factory.js';

/**
 * Nothing a repository writes hides a committed secret from the gate, and every skip it can cause
 * counts as not reviewed. Each case commits a fresh token in a file the repository dresses up
 * (a marker, a name, a folder, an encoding, a size...) and runs the built CLI with
 * `--fail-on high --min-coverage 1`: the token gates (exit 3) and, unless the file is still
 * reviewed, the coverage gate names it too. The token is never printed.
 */
const secrets = createSecretFactory(randomInt(2 ** 31));
let cases = 0;
afterAll(() => console.log(`audit self-declared skips: ${cases} cases`));

type Files = Record<string, string | Buffer>;

interface SkipCase {
  name: string;
  /** The repository, given a fresh token; `src/ok.py` is added to every one. */
  files: (token: string) => Files;
  /** Where the token sits. */
  secretPath: string;
  /** The ledger status of that file: a skip reason, or `reviewed`. */
  status: string;
  args?: string[];
}

const line = (token: string) => `API_TOKEN = "${token}"\n`;
const utf16 = (text: string): Buffer => Buffer.from(`\uFEFF${text}`, 'utf16le');
const utf32be = (text: string): Buffer => {
  const points = [0xfeff, ...[...text].map((char) => char.codePointAt(0) ?? 0)];
  const bytes = Buffer.alloc(points.length * 4);
  points.forEach((point, at) => bytes.writeUInt32BE(point, at * 4));
  return bytes;
};

const CASES: SkipCase[] = [
  // The self-declared skips the issue names.
  {
    name: '@generated in the first five lines',
    files: (token) => ({
      'src/auth.py': `# line 1\n# line 2\n# line 3\n# @generated\ndef check(user):\n    return True  # backdoor\n${line(token)}`,
    }),
    secretPath: 'src/auth.py',
    status: 'skipped(generated)',
  },
  {
    name: 'a text file named logo.png',
    files: (token) => ({ 'assets/logo.png': line(token) }),
    secretPath: 'assets/logo.png',
    status: 'reviewed',
  },
  {
    name: 'a *.min.js name',
    files: (token) => ({ 'web/app.min.js': `var t="${token}";\n` }),
    secretPath: 'web/app.min.js',
    status: 'skipped(minified)',
  },
  {
    name: 'a build/ folder',
    files: (token) => ({ 'build/settings.py': line(token) }),
    secretPath: 'build/settings.py',
    status: 'skipped(default-dir)',
  },
  {
    name: 'a dist/ folder',
    files: (token) => ({ 'dist/settings.py': line(token) }),
    secretPath: 'dist/settings.py',
    status: 'skipped(default-dir)',
  },
  {
    name: 'a vendor/ folder',
    files: (token) => ({ 'vendor/lib/settings.py': line(token) }),
    secretPath: 'vendor/lib/settings.py',
    status: 'skipped(default-dir)',
  },
  {
    name: 'UTF-16 with a byte order mark',
    files: (token) => ({ 'src/wide.py': utf16(line(token)) }),
    secretPath: 'src/wide.py',
    status: 'reviewed',
  },
  // More that a repository can write.
  {
    name: 'a lockfile',
    files: (token) => ({
      'package-lock.json': `{\n  "packages": {\n    "node_modules/x": {\n      "resolved": "https://npm.pkg.github.com/x.tgz",\n      "token": "${token}"\n    }\n  }\n}\n`,
    }),
    secretPath: 'package-lock.json',
    status: 'skipped(lockfile)',
  },
  {
    name: 'a file over --max-file-bytes, the token at its end',
    files: (token) => ({
      'data/dump.sql': `${'INSERT INTO t VALUES (1);\n'.repeat(12_000)}${line(token)}`,
    }),
    secretPath: 'data/dump.sql',
    status: 'skipped(too-large)',
    args: ['--max-file-bytes', '100000'],
  },
  {
    name: 'a .venv/ folder',
    files: (token) => ({ '.venv/lib/site.py': line(token) }),
    secretPath: '.venv/lib/site.py',
    status: 'skipped(default-dir)',
  },
  {
    name: 'a third_party/ folder',
    files: (token) => ({ 'third_party/x/conf.py': line(token) }),
    secretPath: 'third_party/x/conf.py',
    status: 'skipped(default-dir)',
  },
  {
    name: 'a target/ folder',
    files: (token) => ({ 'target/classes/app.properties': `token=${token}\n` }),
    secretPath: 'target/classes/app.properties',
    status: 'skipped(default-dir)',
  },
  {
    name: 'a committed node_modules/ folder',
    files: (token) => ({ 'node_modules/evil/index.js': `module.exports = "${token}";\n` }),
    secretPath: 'node_modules/evil/index.js',
    status: 'skipped(default-dir)',
  },
  {
    name: 'the repository’s own .oyignore',
    files: (token) => ({ '.oyignore': 'src/secret.py\n', 'src/secret.py': line(token) }),
    secretPath: 'src/secret.py',
    status: 'skipped(repository-ignore)',
  },
  {
    name: 'the repository’s own .oy/config.json audit.exclude',
    files: (token) => ({
      '.oy/config.json': '{"audit": {"exclude": ["src/excluded.py"]}}\n',
      'src/excluded.py': line(token),
    }),
    secretPath: 'src/excluded.py',
    status: 'skipped(project-exclude)',
  },
  {
    name: 'a "Code generated ... DO NOT EDIT." header',
    files: (token) => ({
      'pkg/api.go': `// Code generated by protoc-gen-go. DO NOT EDIT.\npackage api\n\nconst Token = "${token}"\n`,
    }),
    secretPath: 'pkg/api.go',
    status: 'skipped(generated)',
  },
  {
    name: 'minified content under a plain name',
    files: (token) => ({ 'web/bundle.js': `var a=1;${'b=2;'.repeat(4000)}var t="${token}";\n` }),
    secretPath: 'web/bundle.js',
    status: 'skipped(minified)',
  },
  {
    name: 'invalid UTF-8 in the middle of the file',
    files: (token) => ({
      'src/legacy.py': Buffer.concat([
        Buffer.from('# caf'),
        Buffer.from([0xe9, 0xff]),
        Buffer.from(`\n${line(token)}`),
      ]),
    }),
    secretPath: 'src/legacy.py',
    status: 'skipped(invalid-utf8)',
  },
  {
    name: 'a NUL byte early in a text file',
    files: (token) => ({ 'src/app.js': `/*\0*/\nconst token = "${token}";\n` }),
    secretPath: 'src/app.js',
    status: 'skipped(unexpected-binary)',
  },
  {
    name: 'binary content under a binary name',
    files: (token) => ({
      'assets/real.png': Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
        Buffer.from(`tEXt\0comment ${token}\0`),
      ]),
    }),
    secretPath: 'assets/real.png',
    status: 'skipped(binary)',
  },
  {
    name: 'a .gitattributes linguist-generated and -diff marker (oy reads no attributes)',
    files: (token) => ({
      '.gitattributes': 'src/client.py linguist-generated=true -diff\n',
      'src/client.py': line(token),
    }),
    secretPath: 'src/client.py',
    status: 'reviewed',
  },
  {
    name: 'UTF-32 big-endian with a byte order mark',
    files: (token) => ({ 'src/wide32.py': utf32be(line(token)) }),
    secretPath: 'src/wide32.py',
    status: 'reviewed',
  },
  {
    name: 'UTF-16 without a byte order mark',
    files: (token) => ({ 'src/plain16.py': Buffer.from(line(token), 'utf16le') }),
    secretPath: 'src/plain16.py',
    status: 'reviewed',
  },
  {
    name: 'UTF-16 without a byte order mark, in a file named logo.png',
    files: (token) => ({ 'assets/logo.png': Buffer.from(line(token), 'utf16le') }),
    secretPath: 'assets/logo.png',
    status: 'reviewed',
  },
  {
    name: 'UTF-16 big-endian with a control character (binary content), named icon.png',
    files: (token) => ({
      'assets/icon.png': Buffer.from(`\u0001${line(token)}`, 'utf16le').swap16(),
    }),
    secretPath: 'assets/icon.png',
    status: 'skipped(binary)',
  },
];

/** Statuses that leave the file out of the review: with `--min-coverage 1` they fail the gate. */
const NOT_COUNTED = new Set(['reviewed', 'skipped(binary)']);

function makeRepo(files: Files): string {
  const repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-skips-')));
  const all: Files = { 'src/ok.py': 'def ok():\n    return 1\n', ...files };
  for (const [relPath, content] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(repo, relPath)), { recursive: true });
    writeFileSync(path.join(repo, relPath), content);
  }
  writeFileSync(path.join(repo, '.gitignore'), 'out/\n');
  commitAll(repo);
  return repo;
}

describe('audit: what a repository declares hides no committed secret from the gate', () => {
  it.each(CASES)('$name', async (skipCase) => {
    cases++;
    const token = secrets.githubToken('p');
    const repo = makeRepo(skipCase.files(token));
    const result = await runOy(
      [
        ...['audit', '--offline', '--fail-on', 'high', '--min-coverage', '1'],
        ...['--format', 'json', '--out', 'out/r.json', ...(skipCase.args ?? [])],
      ],
      { cwd: repo },
    );
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/^gate: `--fail-on high`: /m);
    const report = JSON.parse(readFileSync(path.join(repo, 'out/r.json'), 'utf8')) as AuditReport;
    expect(
      report.secrets.filter((secret) => secret.path === skipCase.secretPath),
      'the token is found where it sits',
    ).toEqual([expect.objectContaining({ rule: 'github-token', isTracked: true })]);
    const entry = report.coverage.ledger.find((each) => each.path === skipCase.secretPath);
    expect(entry && `${entry.status}${entry.reason ? `(${entry.reason})` : ''}`).toBe(
      skipCase.status,
    );
    const isCounted = !NOT_COUNTED.has(skipCase.status);
    expect(result.stderr.includes('gate: `--min-coverage 1`'), result.stderr).toBe(isCounted);
    const everything = result.stdout + result.stderr + readFileSync(path.join(repo, 'out/r.json'));
    expect(everything).not.toContain(token);
  });

  it('the report lists what the repository kept from the review by reason, the secrets too', async () => {
    cases++;
    const counted = CASES.filter(
      (each) => !NOT_COUNTED.has(each.status) && each.args === undefined,
    );
    const tokens = counted.map(() => secrets.githubToken('p'));
    const repo = makeRepo(
      Object.assign({}, ...counted.map((each, index) => each.files(tokens[index] ?? ''))) as Files,
    );
    const result = await runOy(['audit', '--offline', '--out', 'out/ISSUES.md'], { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    const markdown = readFileSync(path.join(repo, 'out/ISSUES.md'), 'utf8');
    const section =
      markdown.split('### Not reviewed because of what the repository holds')[1] ?? '';
    for (const each of counted) {
      const reason = each.status.slice('skipped('.length, -1);
      expect(section, each.name).toContain(
        `| ${each.secretPath.replaceAll('_', '\\_')} | ${reason} |`,
      );
    }
    const secretsSection = markdown.split('## Secrets')[1] ?? '';
    for (const each of counted) {
      expect(secretsSection, each.name).toContain(each.secretPath.replaceAll('_', '\\_'));
    }
    for (const token of tokens) expect(markdown).not.toContain(token);
  });

  it('control: the same token in a plain file gates, and coverage is complete', async () => {
    cases++;
    const token = secrets.githubToken('p');
    const repo = makeRepo({ 'src/settings.py': line(token) });
    const result = await runOy(['audit', '--offline', '--fail-on', 'high', '--min-coverage', '1'], {
      cwd: repo,
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).not.toContain('--min-coverage 1');
    const clean = makeRepo({ 'src/settings.py': 'API_TOKEN = os.environ["API_TOKEN"]\n' });
    const passing = await runOy(
      ['audit', '--offline', '--fail-on', 'high', '--min-coverage', '1'],
      {
        cwd: clean,
      },
    );
    expect(passing.code, passing.stderr).toBe(0);
  });
});
