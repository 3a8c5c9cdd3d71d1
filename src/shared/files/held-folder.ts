import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** A folder opened with this never follows a link at its last step, and fails on a file. */
const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | constants.O_NOFOLLOW;
/** Windows cannot open a folder as a file: there it is held by its identity alone. */
const CAN_OPEN_FOLDERS = process.platform !== 'win32';

interface Identity {
  dev: number;
  ino: number;
}

/**
 * A folder opened once, without following links, and reached again only through what was opened. On
 * Linux every later path goes through `/proc/self/fd/<n>/<name>`, which names the opened folder itself,
 * so a folder swapped for a link after opening cannot redirect a write. Where there is no such path
 * (macOS, the BSDs, Windows, a Linux without /proc) each path is given only after checking that the
 * folder at the old path is still the one opened, with no link on the way; a swap in the instant
 * between that check and the write is not prevented there (SECURITY.md "Output paths").
 */
export class HeldFolder {
  private constructor(
    /** The folder's real path when it was opened: for messages, and the re-checked fallback. */
    readonly realPath: string,
    private readonly handle: FileHandle | null,
    private readonly identity: Identity,
    /** `/proc/self/fd/<n>`, when it reaches the opened folder. */
    private readonly fdPath: string | null,
  ) {}

  /**
   * Opens a folder by its real path (as `realpath` gives it), checking after opening that it is the one
   * named. `useFdPath: false` takes the re-checked way of the platforms without `/proc/self/fd` (tests).
   */
  static async open(realPath: string, options: { useFdPath?: boolean } = {}): Promise<HeldFolder> {
    return HeldFolder.openAt(realPath, realPath, options.useFdPath ?? true);
  }

  /** A folder inside this one, opened through it (created first when `create` is set and it is missing). */
  async openChild(
    name: string,
    options: { create?: boolean; mode?: number } = {},
  ): Promise<HeldFolder> {
    const reached = await this.pathOf(name);
    if (options.create) {
      await mkdir(reached, options.mode === undefined ? {} : { mode: options.mode }).catch(
        (error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        },
      );
    }
    return HeldFolder.openAt(reached, path.join(this.realPath, name), this.fdPath !== null);
  }

  /** A path that reaches `name` in this very folder; throws when the folder can no longer be reached safely. */
  async pathOf(name: string): Promise<string> {
    checkName(name);
    if (this.fdPath !== null) return `${this.fdPath}/${name}`;
    await this.checkStillNamed();
    return path.join(this.realPath, name);
  }

  /** The real path still leads to the folder opened, with no link on the way. */
  private async checkStillNamed(): Promise<void> {
    const now = await stat(this.realPath);
    if (now.dev !== this.identity.dev || now.ino !== this.identity.ino)
      throw folderError('ELOOP', `${this.realPath} was replaced after it was opened`);
    if ((await realpath(this.realPath)) !== this.realPath)
      throw folderError('ELOOP', `${this.realPath} now passes through a link`);
  }

  async close(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
  }

  private static async openAt(
    reached: string,
    realPath: string,
    useFdPath: boolean,
  ): Promise<HeldFolder> {
    if (!CAN_OPEN_FOLDERS) {
      const stats = await lstat(reached);
      if (!stats.isDirectory()) throw folderError('ENOTDIR', `${realPath} is not a folder`);
      const held = new HeldFolder(realPath, null, stats, null);
      await held.checkStillNamed();
      return held;
    }
    const handle = await open(reached, FOLDER_FLAGS);
    try {
      const stats = await handle.stat();
      if (!stats.isDirectory()) throw folderError('ENOTDIR', `${realPath} is not a folder`);
      const fdPath = useFdPath ? await findFdPath(handle, stats) : null;
      const held = new HeldFolder(realPath, handle, stats, fdPath);
      // Opened by name (or with no fd path to go on): the name must lead here with no link on the way.
      if (fdPath === null || reached === realPath) await held.checkStillNamed();
      return held;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
}

/** `/proc/self/fd/<n>` when it leads to this very folder (Linux with /proc mounted), else null. */
async function findFdPath(handle: FileHandle, identity: Identity): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  const fdPath = `/proc/self/fd/${handle.fd}`;
  try {
    const reached = await stat(fdPath);
    return reached.dev === identity.dev && reached.ino === identity.ino ? fdPath : null;
  } catch {
    return null;
  }
}

/** Separators in a name: a backslash is one only on Windows (elsewhere `a\b.md` is a plain name). */
const SEPARATOR = process.platform === 'win32' ? /[/\\\0]/ : /[/\0]/;

/** One name inside the folder: never a path, never a step up. */
function checkName(name: string): void {
  if (name === '' || name === '..' || SEPARATOR.test(name))
    throw new TypeError(`a held folder's entry must be one name, got ${JSON.stringify(name)}`);
}

function folderError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}
