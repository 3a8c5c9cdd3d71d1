import { createHash, randomBytes } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectCandidates } from '../../../src/audit/collect/collect-candidates.js';
import { fileIdentity } from '../../../src/audit/collect/file-identity.js';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { RACY_WINDOW_MS, ScanCache } from '../../../src/audit/scan/scan-cache.js';
import { scanFiles } from '../../../src/audit/scan/scan-files.js';
import { createTokenCounter } from '../../../src/audit/tokens/count-tokens.js';
import type { CandidateFile } from '../../../src/audit/types.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';

const MIB = 1024 * 1024;
const counter = createTokenCounter();

function token(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return `ghp_${Array.from(randomBytes(36), (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

function source(secret: string, index: number): string {
  return `const token${index} = "${secret}";\napp.get('/x', (req, res) => exec('ls ' + req.query.d));\n`;
}

/** A workspace of `count` files, each holding a fresh secret. */
function workspace(count: number): { root: string; secrets: string[] } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-unread-')));
  mkdirSync(path.join(root, 'pkg'));
  const secrets = Array.from({ length: count }, () => token());
  secrets.forEach((secret, index) =>
    writeFileSync(path.join(root, 'pkg', `f${index}.js`), source(secret, index)),
  );
  return { root, secrets };
}

async function candidatesOf(root: string): Promise<CandidateFile[]> {
  const collected = await collectCandidates({
    root,
    include: [],
    exclude: [],
    maxFileBytes: MIB,
    env: {},
  });
  return collected.candidates;
}

/**
 * One scan as prepareAudit runs it. `startedMs` stands for when the run began: files written
 * just now count as changed long before it when it lies past the racy window.
 */
async function scan(
  root: string,
  cacheDir: string,
  startedMs: number,
  candidates?: CandidateFile[],
): Promise<{ cache: ScanCache } & Awaited<ReturnType<typeof scanFiles>>> {
  const cache = await ScanCache.open(cacheDir, root, ['test'], startedMs);
  const { files, secretsOnly, ledger } = await scanFiles(candidates ?? (await candidatesOf(root)), {
    maxFileBytes: MIB,
    concurrency: 4,
    cache,
    tools: {
      redact: (text) => createRedactor().redact(text),
      indexFile,
      counter: () => counter,
      needsLineTokens: () => false,
    },
  });
  await cache.save();
  return { cache, files, secretsOnly, ledger };
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const later = (): number => Date.now() + RACY_WINDOW_MS + 60_000;

describe('warm scan by file identity', () => {
  it('reads no file a second time when nothing changed, and gives the same result', async () => {
    const { root } = workspace(30);
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-unread-cache-'));
    const cold = await scan(root, cacheDir, later());
    expect(cold.ledger).toEqual([]);
    expect(cold.cache.hits).toBe(0);
    const warm = await scan(root, cacheDir, later());
    expect(warm.cache.unreadHits).toBe(30);
    expect(warm.files).toEqual(cold.files);
  });

  it('keeps files named like object properties apart, and a planted name does not fool it', async () => {
    const { root } = workspace(0);
    const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'f0.js\u001b[2J'];
    const secrets = names.map(() => token());
    names.forEach((name, index) =>
      writeFileSync(path.join(root, 'pkg', name), source(secrets[index] ?? '', index)),
    );
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-unread-cache-'));
    const cold = await scan(root, cacheDir, later());
    expect(cold.files.map((file) => file.path).sort()).toEqual(
      names.map((name) => `pkg/${name}`).sort(),
    );
    const warm = await scan(root, cacheDir, later());
    expect(warm.cache.unreadHits).toBe(names.length);
    expect(warm.files).toEqual(cold.files);
    // One of them rewritten: only it is read again, and its new secret is redacted.
    const canary = token();
    writeFileSync(path.join(root, 'pkg', '__proto__'), source(canary, 9));
    const third = await scan(root, cacheDir, later());
    expect(third.cache.unreadHits).toBe(names.length - 1);
    expect(JSON.stringify(third.files)).not.toContain(canary);
    expect(third.files.find((file) => file.path === 'pkg/__proto__')?.redactions.length).toBe(1);
  });

  it('remembers the content checks skipping a file, and reads it again once it changes', async () => {
    const { root } = workspace(2);
    const binary = path.join(root, 'pkg', 'blob.js');
    const bytes = Buffer.alloc(600, 0x41);
    bytes[10] = 0;
    writeFileSync(binary, bytes);
    utimesSync(binary, 1_600_000_000, 1_600_000_000);
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-unread-cache-'));
    const cold = await scan(root, cacheDir, later());
    expect(cold.ledger.map((entry) => [entry.path, entry.reason])).toEqual([
      ['pkg/blob.js', 'unexpected-binary'],
    ]);
    const warm = await scan(root, cacheDir, later());
    expect(warm.cache.unreadHits).toBe(3);
    expect(warm.ledger).toEqual(cold.ledger);
    // The same size and times, now text with a secret: the change time gives it away.
    const canary = token();
    const text = source(canary, 7);
    writeFileSync(binary, text + ' '.repeat(600 - Buffer.byteLength(text) - 1) + '\n');
    utimesSync(binary, 1_600_000_000, 1_600_000_000);
    expect(statSync(binary).size).toBe(600);
    const third = await scan(root, cacheDir, later());
    expect(third.ledger).toEqual([]);
    expect(third.cache.unreadHits).toBe(2);
    const file = third.files.find((scanned) => scanned.path === 'pkg/blob.js');
    expect(file?.redactions.length).toBe(1);
    expect(JSON.stringify(third)).not.toContain(canary);
  });

  it('two hard-linked paths in the repository are read under neither name, before or after a write', async () => {
    const { root } = workspace(1);
    const first = path.join(root, 'pkg', 'f0.js');
    const second = path.join(root, 'pkg', 'twin.js');
    linkSync(first, second);
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-unread-cache-'));
    const collected = await collectCandidates({
      root,
      include: [],
      exclude: [],
      maxFileBytes: MIB,
      env: {},
    });
    expect(collected.candidates).toEqual([]);
    expect(collected.ledger.map((entry) => [entry.path, entry.reason])).toEqual([
      ['pkg/f0.js', 'hard-link'],
      ['pkg/twin.js', 'hard-link'],
    ]);
    // A candidate listed before the link was made is refused when opened.
    const listed: CandidateFile = {
      path: 'pkg/f0.js',
      absolutePath: first,
      size: statSync(first).size,
      isTracked: false,
    };
    const after = await scan(root, cacheDir, later(), [listed]);
    expect(after.files).toEqual([]);
    expect(after.ledger.map((entry) => entry.reason)).toEqual(['hard-link']);
  });

  it('does not remember a file changed within the racy window: it is read again', async () => {
    const { root } = workspace(5);
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-unread-cache-'));
    await scan(root, cacheDir, Date.now());
    const warm = await scan(root, cacheDir, later());
    expect(warm.cache.hits).toBe(5);
    expect(warm.cache.unreadHits).toBe(0);
  });

  it('reads a file rewritten at the same size with its times set back, and redacts its new secret', async () => {
    const { root } = workspace(3);
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-unread-cache-'));
    const target = path.join(root, 'pkg', 'f1.js');
    // Whole seconds, so the attacker's utimes below restores the modification time exactly.
    const stamp = 1_600_000_000;
    utimesSync(target, stamp, stamp);
    await scan(root, cacheDir, later());
    const before = statSync(target);
    const canary = token();
    writeFileSync(target, source(canary, 1));
    utimesSync(target, stamp, stamp);
    const after = statSync(target);
    expect([after.ino, after.size, after.mtimeMs]).toEqual([
      before.ino,
      before.size,
      before.mtimeMs,
    ]);
    const warm = await scan(root, cacheDir, later());
    expect(warm.cache.unreadHits).toBe(2);
    const file = warm.files.find((scanned) => scanned.path === 'pkg/f1.js');
    expect(file?.sourceHash).toBe(sha256(readFileSync(target)));
    expect(file?.redactions.length).toBeGreaterThan(0);
    expect(JSON.stringify(warm.files)).not.toContain(canary);
  });

  it('never reads through a folder swapped for a symlink, even to a hard link of the same file', async () => {
    const { root } = workspace(2);
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-unread-cache-'));
    const cold = await scan(root, cacheDir, later());
    const listedBefore = await candidatesOf(root);
    // pkg/ becomes a link to a folder outside the workspace holding a hard link to the same
    // inode (link() moves its change time) and a file with an outside secret.
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-unread-outside-')));
    const canary = token();
    renameSync(path.join(root, 'pkg'), path.join(outside, 'moved'));
    mkdirSync(path.join(outside, 'pkg'));
    linkSync(path.join(outside, 'moved', 'f0.js'), path.join(outside, 'pkg', 'f0.js'));
    writeFileSync(path.join(outside, 'pkg', 'f1.js'), source(canary, 1));
    symlinkSync(path.join(outside, 'pkg'), path.join(root, 'pkg'));

    // Listed after the swap: nothing below the link is a candidate, so nothing is read or reused.
    expect(await candidatesOf(root)).toEqual([]);
    // Listed before the swap, scanned after: the listing's identities are those of the files
    // read by the first run, so the result is that run's, and nothing outside is read.
    const cache = await ScanCache.open(cacheDir, root, ['test'], later());
    const raced = await scanFiles(listedBefore, {
      maxFileBytes: MIB,
      concurrency: 4,
      cache,
      tools: {
        redact: () => {
          throw new Error('nothing may be read and redacted');
        },
        indexFile,
        counter: () => counter,
        needsLineTokens: () => false,
      },
    });
    expect(raced.files).toEqual(cold.files);
    expect(JSON.stringify(raced)).not.toContain(canary);
    const outsideHash = sha256(readFileSync(path.join(outside, 'pkg', 'f1.js')));
    expect(raced.files.map((file) => file.sourceHash)).not.toContain(outsideHash);
    // With the listing's identity gone stale (the hard link moved its change time), the file is
    // opened, and the open refuses the link.
    const stale = listedBefore.map((candidate) => ({ ...candidate, identity: 'stale' }));
    const reopened = await scanFiles(stale, {
      maxFileBytes: MIB,
      concurrency: 4,
      cache: await ScanCache.open(cacheDir, root, ['test'], later()),
      tools: {
        redact: (text) => createRedactor().redact(text),
        indexFile,
        counter: () => counter,
        needsLineTokens: () => false,
      },
    });
    expect(reopened.files).toEqual([]);
    expect(reopened.ledger.map((entry) => [entry.path, entry.reason])).toEqual([
      ['pkg/f0.js', 'symlink'],
      ['pkg/f1.js', 'symlink'],
    ]);
    // The hard link is the same inode, yet not the same identity: link() moved its change time.
    const linked = fileIdentity(statSync(path.join(outside, 'pkg', 'f0.js')));
    expect(linked.key).not.toBe(listedBefore.find((c) => c.path === 'pkg/f0.js')?.identity);
  });
});
