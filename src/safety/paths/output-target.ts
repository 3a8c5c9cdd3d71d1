import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { HeldFolder } from '../../shared/files/held-folder.js';
import { EXIT, OyError, UsageError } from '../../shared/errors.js';
import { writeFileAtomic } from '../../shared/write-file-atomic.js';
import { errorCode } from './path-refusal.js';

/** Reading an existing output: no link at the last step, and no wait on a FIFO. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * An output file (`--out`, `--manifest`, `--write-baseline`) whose folder is opened once, before any
 * work, from the workspace root down without following a link at any step, and held open: the file is
 * read and written through that folder, so a folder swapped for a link during the run cannot send it
 * elsewhere (`HeldFolder`). Folders the path still lacks are made at write time, through the held one.
 */
export class OutputTarget {
  private constructor(
    /** Where the file is written, for messages and stdout. */
    readonly absolutePath: string,
    private readonly flag: string,
    private folder: HeldFolder,
    /** Folders still to make under the held one, outermost first. */
    private readonly missing: string[],
    private readonly name: string,
  ) {}

  /**
   * Holds the deepest existing folder of `absolutePath`, which `resolveOutputPath` has checked lies
   * in the workspace; a link met on the way (one swapped in since that check) is refused.
   */
  static async open(root: string, absolutePath: string, flag: string): Promise<OutputTarget> {
    const realRoot = await realpath(root);
    const components = path.relative(realRoot, absolutePath).split(path.sep);
    const name = components.pop() ?? '';
    let folder = await HeldFolder.open(realRoot);
    const missing: string[] = [];
    try {
      for (const [index, component] of components.entries()) {
        let child: HeldFolder;
        try {
          child = await folder.openChild(component);
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
          missing.push(...components.slice(index));
          break;
        }
        await folder.close();
        folder = child;
      }
    } catch (error) {
      await folder.close();
      throw new UsageError(`${flag} ${absolutePath} ${describe(error)}`, {
        hint: 'give a file path inside the workspace whose folders are real folders, not links',
      });
    }
    return new OutputTarget(absolutePath, flag, folder, missing, name);
  }

  /** The file's current text, read through the held folder; undefined when there is none to read. */
  async readExisting(): Promise<string | undefined> {
    if (this.missing.length > 0) return undefined;
    try {
      const handle = await open(await this.folder.pathOf(this.name), READ_FLAGS);
      try {
        return (await handle.stat()).isFile() ? await handle.readFile('utf8') : undefined;
      } finally {
        await handle.close();
      }
    } catch {
      return undefined;
    }
  }

  /** Writes the file atomically in the held folder, making the missing folders through it first. */
  async write(data: string): Promise<void> {
    try {
      while (this.missing.length > 0) {
        const child = await this.folder.openChild(this.missing[0] ?? '', { create: true });
        await this.folder.close();
        this.folder = child;
        this.missing.shift();
      }
      await writeFileAtomic({ folder: this.folder, name: this.name }, data);
    } catch (error) {
      throw new OyError(
        `${this.flag} ${this.absolutePath} was not written: it ${describe(error)}`,
        EXIT.runtime,
        {
          hint: 'something changed the output folder during the run; check it and run again',
          cause: error,
        },
      );
    }
  }

  async close(): Promise<void> {
    await this.folder.close();
  }
}

function describe(error: unknown): string {
  switch (errorCode(error)) {
    case 'ELOOP':
    case 'ENOTDIR':
      return 'passes through a link or a file where a folder should be (oy opens output folders without following links)';
    case 'EISDIR':
      return 'is a folder';
    default:
      return `could not be reached (${errorCode(error)})`;
  }
}
