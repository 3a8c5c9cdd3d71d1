import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HeldFolder } from '../../../src/shared/files/held-folder.js';
import { writeFileAtomic } from '../../../src/shared/write-file-atomic.js';

/** A workspace with `reports/`, and a folder outside it that must stay empty. */
function sandbox() {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-held-folder-')));
  const workspace = path.join(base, 'workspace');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(workspace, 'reports'), { recursive: true });
  mkdirSync(outside);
  return { workspace, outside, reports: path.join(workspace, 'reports') };
}

/** The attack: the folder moved away and a link to the outside put in its place. */
function swapForLink(folder: string, target: string): string {
  const moved = `${folder}.moved`;
  renameSync(folder, moved);
  symlinkSync(target, folder);
  return moved;
}

/** Linux refuses a link opened as a folder with O_NOFOLLOW | O_DIRECTORY as ENOTDIR; others say ELOOP. */
const REFUSED_LINK = { code: expect.stringMatching(/^(ELOOP|ENOTDIR)$/) };

const canLinuxFdPath = process.platform === 'linux' && existsSync('/proc/self/fd');

describe('HeldFolder', () => {
  it.runIf(canLinuxFdPath)(
    'writes into the folder it opened after that folder was swapped for a link outside (/proc/self/fd)',
    async () => {
      const { reports, outside } = sandbox();
      const folder = await HeldFolder.open(reports);
      const text = `report ${randomBytes(8).toString('hex')}`;
      try {
        const moved = swapForLink(reports, outside);
        await writeFileAtomic({ folder, name: 'ISSUES.md' }, text);
        const sub = await folder.openChild('deeper', { create: true });
        await writeFileAtomic({ folder: sub, name: 'ledger.json' }, text);
        await sub.close();
        expect(readdirSync(outside)).toEqual([]);
        expect(readFileSync(path.join(moved, 'ISSUES.md'), 'utf8')).toBe(text);
        expect(readFileSync(path.join(moved, 'deeper', 'ledger.json'), 'utf8')).toBe(text);
        // No temporary file is left behind.
        expect(readdirSync(moved).sort()).toEqual(['ISSUES.md', 'deeper']);
      } finally {
        await folder.close();
      }
    },
  );

  it('without /proc/self/fd (macOS, Windows), refuses a swapped folder instead of writing through it', async () => {
    const { reports, outside } = sandbox();
    const folder = await HeldFolder.open(reports, { useFdPath: false });
    try {
      await writeFileAtomic({ folder, name: 'before.md' }, 'ok');
      expect(readFileSync(path.join(reports, 'before.md'), 'utf8')).toBe('ok');
      swapForLink(reports, outside);
      await expect(writeFileAtomic({ folder, name: 'ISSUES.md' }, 'x')).rejects.toMatchObject({
        code: 'ELOOP',
      });
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      await folder.close();
    }
  });

  it.each([true, false])(
    'never opens a link as a child, nor creates through one planted in its place (fd path: %s)',
    async (useFdPath) => {
      const { workspace, outside } = sandbox();
      symlinkSync(outside, path.join(workspace, 'linked'));
      const root = await HeldFolder.open(workspace, { useFdPath });
      try {
        await expect(root.openChild('linked')).rejects.toMatchObject(REFUSED_LINK);
        await expect(root.openChild('linked', { create: true })).rejects.toMatchObject(
          REFUSED_LINK,
        );
        await expect(root.openChild('missing')).rejects.toMatchObject({ code: 'ENOENT' });
        expect(readdirSync(outside)).toEqual([]);
      } finally {
        await root.close();
      }
    },
  );

  it('refuses to open a folder whose path passes through a link', async () => {
    const { workspace, outside } = sandbox();
    symlinkSync(outside, path.join(workspace, 'linked'));
    await expect(HeldFolder.open(path.join(workspace, 'linked'))).rejects.toMatchObject(
      REFUSED_LINK,
    );
  });

  it.each(['', '..', 'a/b', 'a\0b', ...(process.platform === 'win32' ? ['a\\b'] : [])])(
    'refuses %j as a name',
    async (name) => {
      const { reports } = sandbox();
      const folder = await HeldFolder.open(reports);
      try {
        await expect(folder.pathOf(name)).rejects.toThrow(/must be one name/);
      } finally {
        await folder.close();
      }
    },
  );
});
