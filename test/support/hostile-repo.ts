import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commitAll } from './git-fixture.js';

/**
 * Hostile repositories for the "opening a repository runs none of its code" suite. Every program
 * a repository can name is a canary script in a folder outside the workspace that appends its tag
 * to a log (and passes stdin through, so it also works as a filter); a test checks the log stays
 * empty, and a control runs plain git to prove the same setup does fire it.
 */
export interface Trap {
  /** The folder outside every workspace holding the canaries and their log. */
  dir: string;
  /** The path of the canary program for `tag`. */
  program(tag: string): string;
  /** Tags of the canaries that ran, in order. */
  fired(): string[];
  reset(): void;
  /** A folder of hooks, every one a canary. */
  hooksDir: string;
}

const HOOK_NAMES = [
  'pre-commit',
  'post-commit',
  'post-checkout',
  'post-index-change',
  'reference-transaction',
  'pre-auto-gc',
  'fsmonitor-watchman',
];

export function makeTempFolder(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

export function makeTrap(): Trap {
  const dir = makeTempFolder('oy-trap-');
  const log = path.join(dir, 'fired.log');
  const program = (tag: string): string => {
    const file = path.join(dir, `canary-${tag}`);
    if (!existsSync(file)) {
      writeFileSync(file, `#!/bin/sh\necho ${tag} >> '${log}'\ncat\n`);
      chmodSync(file, 0o755);
    }
    return file;
  };
  const hooksDir = path.join(dir, 'hooks');
  mkdirSync(hooksDir);
  for (const hook of HOOK_NAMES) {
    writeFileSync(path.join(hooksDir, hook), `#!/bin/sh\necho hook-${hook} >> '${log}'\n`);
    chmodSync(path.join(hooksDir, hook), 0o755);
  }
  return {
    dir,
    program,
    hooksDir,
    fired: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
    reset: () => rmSync(log, { force: true }),
  };
}

/** Runs plain git (no hardening), as a control or to build fixtures. */
export function plainGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    // No index written back, so a control leaves the fixture's files stat-dirty.
    env: { ...process.env, GIT_PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0' },
  });
}

/** Like `plainGit` but never throws: controls only care whether a canary ran. */
export function tryPlainGit(cwd: string, ...args: string[]): void {
  try {
    plainGit(cwd, ...args);
  } catch {
    // Exit status does not matter to a control.
  }
}

/**
 * Config naming a canary for every program git can be told to run: filters (clean, smudge,
 * process), textconv and diff commands, external diff, fsmonitor, hooks, ssh, pager, editor,
 * askpass, credential helper, plus `include.path` and `includeIf` files defining more filters.
 */
export function writeHostileConfig(trap: Trap, configFile: string, extra = ''): void {
  const included = path.join(trap.dir, 'included.config');
  const includedIf = path.join(trap.dir, 'included-if.config');
  writeFileSync(included, `[filter "i"]\n\tclean = ${trap.program('include-clean')}\n`);
  writeFileSync(includedIf, `[filter "j"]\n\tclean = ${trap.program('includeif-clean')}\n`);
  const text = `${extra}
[core]
\tfsmonitor = ${trap.program('fsmonitor')}
\thooksPath = ${trap.hooksDir}
\tsshCommand = ${trap.program('ssh')}
\tpager = ${trap.program('pager')}
\teditor = ${trap.program('editor')}
\taskPass = ${trap.program('askpass')}
[credential]
\thelper = ${trap.program('credential')}
[filter "x"]
\tclean = ${trap.program('filter-clean')}
\tsmudge = ${trap.program('filter-smudge')}
\trequired = true
[filter "p"]
\tprocess = ${trap.program('filter-process')}
[diff "t"]
\ttextconv = ${trap.program('textconv')}
[diff]
\texternal = ${trap.program('diff-external')}
[include]
\tpath = ${included}
[includeIf "gitdir:/"]
\tpath = ${includedIf}
`;
  writeFileSync(configFile, readFileIfAny(configFile) + text);
}

/** Attributes routing each kind of file through one of the hostile drivers. */
export const HOSTILE_ATTRIBUTES =
  '*.py filter=x diff=t\n*.md filter=p\n*.txt filter=i\n*.js filter=j\n';

/** Source files, one per hostile driver. */
export const SOURCE_FILES: Record<string, string> = {
  'app.py': 'import os\nprint(os.getcwd())\n',
  'notes.md': '# Notes\n',
  'data.txt': 'plain data\n',
  'main.js': 'console.log("hi");\n',
};

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

/** Moves every file's mtime, so git must look at (and, unhardened, hash) each again. */
export function makeStatDirty(dir: string, names: string[]): void {
  const later = new Date(Date.now() + 60_000);
  for (const name of names) utimesSync(path.join(dir, name), later, later);
}

/**
 * A repository with hostile `.git/config`, hooks in `.git/hooks` and attributes, committed
 * before the config was added (so building it ran nothing), with every file stat-dirty and one
 * changed, as a pull request checkout would be after a build step touched it.
 */
export function makeConfiguredRepo(trap: Trap): string {
  const root = makeTempFolder('oy-hostile-');
  writeFiles(root, { ...SOURCE_FILES, '.gitattributes': HOSTILE_ATTRIBUTES });
  commitAll(root);
  writeHostileConfig(trap, path.join(root, '.git', 'config'));
  cpSync(trap.hooksDir, path.join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(root, 'app.py'), 'import os\nprint(os.getcwd(), 2)\n');
  makeStatDirty(root, Object.keys(SOURCE_FILES));
  return root;
}

/**
 * A plain clone of a repository that commits a bare-repository layout in `pkg/` (HEAD, config
 * with `worktree = .` and the hostile settings, index, objects, refs): git run inside `pkg/`
 * would take the folder as its git directory. Returns the clone's root.
 */
export function makeClonedBareLayout(trap: Trap): string {
  const source = makeTempFolder('oy-bare-source-');
  const pkg = path.join(source, 'pkg');
  writeFiles(pkg, { ...SOURCE_FILES, '.gitattributes': HOSTILE_ATTRIBUTES });
  commitAll(pkg);
  // Turn pkg/.git inside out: its contents become pkg/HEAD, pkg/config, pkg/objects, ...
  for (const entry of readdirSync(path.join(pkg, '.git'))) {
    if (entry === 'hooks' || entry === 'logs') continue;
    renameSync(path.join(pkg, '.git', entry), path.join(pkg, entry));
  }
  rmSync(path.join(pkg, '.git'), { recursive: true, force: true });
  writeFileSync(path.join(pkg, 'config'), '');
  writeHostileConfig(
    trap,
    path.join(pkg, 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n',
  );
  // Empty folders are not committed; keep the ones git looks for.
  for (const folder of ['refs/tags', 'objects/info']) {
    mkdirSync(path.join(pkg, folder), { recursive: true });
    writeFileSync(path.join(pkg, folder, '.keep'), '');
  }
  writeFiles(source, { 'README.md': '# outer\n' });
  commitAll(source);
  const clone = makeTempFolder('oy-bare-clone-');
  execFileSync('git', ['clone', '-q', source, clone], { stdio: 'ignore' });
  rmSync(source, { recursive: true, force: true });
  return clone;
}

/**
 * A workspace whose `.git` is a file naming a git directory outside it, and that git directory's
 * config is hostile (and lists the workspace's files in its index).
 */
export function makeGitFileRepo(trap: Trap): string {
  const root = makeTempFolder('oy-gitfile-');
  writeFiles(root, { ...SOURCE_FILES, '.gitattributes': HOSTILE_ATTRIBUTES });
  commitAll(root);
  const outsideGitDir = path.join(trap.dir, 'elsewhere.git');
  renameSync(path.join(root, '.git'), outsideGitDir);
  writeFileSync(path.join(root, '.git'), `gitdir: ${outsideGitDir}\n`);
  writeHostileConfig(trap, path.join(outsideGitDir, 'config'));
  makeStatDirty(root, Object.keys(SOURCE_FILES));
  return root;
}

/**
 * A repository whose index lists `linkdir/canary.py`, where `linkdir` is a symlink to a folder
 * outside the workspace holding a file with `marker`.
 */
export function makeSymlinkedIndexRepo(outside: string, marker: string): string {
  const root = makeTempFolder('oy-linkindex-');
  writeFiles(root, { 'main.py': 'print("inside")\n' });
  writeFiles(outside, { 'secret-dir/canary.py': `TOKEN = "${marker}"\nprint(TOKEN)\n` });
  commitAll(root);
  symlinkSync(path.join(outside, 'secret-dir'), path.join(root, 'linkdir'));
  const blob = plainGit(root, 'hash-object', '-w', path.join(outside, 'secret-dir', 'canary.py'));
  plainGit(root, 'update-index', '--add', '--cacheinfo', `100644,${blob.trim()},linkdir/canary.py`);
  return root;
}

/** A folder of fake `git`, `bwrap`, `bash` and `true` canaries, for a relative PATH entry. */
export function writeFakeTools(trap: Trap, folder: string): void {
  mkdirSync(folder, { recursive: true });
  for (const tool of ['git', 'bwrap', 'bash', 'true']) {
    writeFileSync(
      path.join(folder, tool),
      `#!/bin/sh\nexec '${trap.program(`fake-${tool}`)}' </dev/null\n`,
    );
    chmodSync(path.join(folder, tool), 0o755);
  }
}

function readFileIfAny(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}
