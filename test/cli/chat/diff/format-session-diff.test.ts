import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSessionDiff } from '../../../../src/cli/chat/diff/format-session-diff.js';
import { createColors } from '../../../../src/cli/terminal.js';

/** /diff from saved first states to the disk: text diffs, and nothing read through a link out of the workspace. */
const plain = createColors(false);
let root: string;
let outside: string;
const canary = `canary-${Math.random().toString(36).slice(2)}`;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-diff-')));
  outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-diff-outside-')));
  writeFileSync(path.join(outside, 'notes.txt'), `${canary}\n`);
  writeFileSync(path.join(root, 'changed.txt'), 'after\n');
  writeFileSync(path.join(root, 'created.txt'), 'new\n');
  writeFileSync(path.join(root, 'target.txt'), 'target\n');
  symlinkSync('target.txt', path.join(root, 'link.txt'));
  // A folder the chat wrote into, replaced since by a link out of the workspace.
  symlinkSync(outside, path.join(root, 'docs'));
  mkdirSync(path.join(root, 'same'));
  writeFileSync(path.join(root, 'same', 'kept.txt'), 'kept\n');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('/diff', () => {
  it('diffs each changed file from its first saved state, and reads nothing through a link out', async () => {
    // Control: the canary is readable through the link, so a /diff that followed it would show it.
    expect(readFileSync(path.join(root, 'docs', 'notes.txt'), 'utf8')).toContain(canary);
    const originals = new Map<string, Buffer | null>([
      ['changed.txt', Buffer.from('before\n')],
      ['created.txt', null],
      ['removed.txt', Buffer.from('gone\n')],
      ['link.txt', Buffer.from('was a file\n')],
      ['docs/notes.txt', Buffer.from('old notes\n')],
      ['same/kept.txt', Buffer.from('kept\n')],
    ]);
    const shown = await formatSessionDiff(root, originals, plain);
    expect(shown).toMatch(/^-before\n\+after$/mu);
    expect(shown).toContain('--- /dev/null\n+++ b/created.txt');
    expect(shown).toContain('--- a/removed.txt\n+++ /dev/null');
    expect(shown).toContain('link.txt: is now a symbolic link');
    expect(shown).toMatch(/^docs\/notes\.txt: cannot be shown: /mu);
    expect(shown).not.toContain(canary);
    expect(shown).not.toContain('kept');
  });

  it('says so when nothing changed', async () => {
    expect(await formatSessionDiff(root, new Map(), plain)).toBe(
      'no changes to the workspace in this chat',
    );
  });
});
