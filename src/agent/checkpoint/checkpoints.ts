import { realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CheckpointRecorder } from '../tools/tool-types.js';
import {
  diffSnapshots,
  findGitWorkTree,
  readBlob,
  snapshotWorkTree,
  type GitWorkTree,
} from './git-snapshot.js';
import {
  removeEmptyFolders,
  removeWorkspaceEntry,
  restoreWorkspaceFile,
} from './restore-workspace-file.js';
import { createPrivateGitFolder } from './private-git-dir.js';
import { saveFile, type SavedFile } from './saved-file.js';

/** Turns kept for /undo; older ones are forgotten (and their spilled copies deleted). */
export const MAX_UNDO_TURNS = 20;

/** What /undo did. Paths are workspace-relative. */
export interface UndoResult {
  turn: number;
  restored: string[];
  removed: string[];
  /** Set when the turn ran a command outside a git work tree: its effects could not be snapshotted. */
  unrestorable?: string;
  /** Paths that could not be put back, each with the reason. */
  failed?: string[];
}

type Checkpoint =
  | { kind: 'file'; saved: SavedFile }
  | { kind: 'tree'; work: GitWorkTree; tree: string }
  | { kind: 'unrestorable'; reason: string };

interface TurnRecord {
  turn: number;
  /** In the order taken; undo applies them last first, so the earliest state of each path wins. */
  checkpoints: Checkpoint[];
  savedFiles: Set<string>;
}

/**
 * Records what each turn's file tools and commands change, so `/undo` can put the workspace back:
 * a file's bytes (or absence) before its first change in the turn, and, before a command in a git
 * work tree, a snapshot of the work tree as a tree in oy's private git directory (nothing in the
 * user's `.git` is read or written).
 */
export class Checkpoints implements CheckpointRecorder {
  private readonly root: string;
  private readonly env: Readonly<Record<string, string | undefined>>;
  private readonly turns: TurnRecord[] = [];
  private current: TurnRecord = newTurn(0);
  private spillFolder: Promise<string> | undefined;
  /** oy's private git directory for this session's work-tree snapshots. */
  private snapshotFolder: Promise<string> | undefined;
  private spillCount = 0;

  constructor(options: {
    workspaceRoot: string;
    env?: Readonly<Record<string, string | undefined>>;
  }) {
    this.root = options.workspaceRoot;
    this.env = options.env ?? {};
  }

  beginTurn(turn: number): void {
    this.current = newTurn(turn);
  }

  async beforeFileChange(absolutePath: string): Promise<void> {
    const realRoot = realpathSync(this.root);
    const relative = path.relative(realRoot, absolutePath);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative))
      throw new Error(`checkpoint refused: ${absolutePath} is outside the workspace`);
    if (this.current.savedFiles.has(relative)) return;
    const saved = await saveFile(realRoot, absolutePath, () => this.nextSpillPath());
    this.current.savedFiles.add(relative);
    this.record({ kind: 'file', saved });
  }

  async beforeCommand(): Promise<void> {
    // One snapshot per turn: the first one already holds the state before every later command.
    if (this.current.checkpoints.some((checkpoint) => checkpoint.kind !== 'file')) return;
    this.snapshotFolder ??= createPrivateGitFolder();
    const work = await findGitWorkTree(
      realpathSync(this.root),
      this.env,
      await this.snapshotFolder,
    );
    if (work === undefined) {
      this.record({
        kind: 'unrestorable',
        reason: 'the turn ran a command outside a git work tree; its changes cannot be undone',
      });
      return;
    }
    try {
      this.record({ kind: 'tree', work, tree: await snapshotWorkTree(work) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.record({
        kind: 'unrestorable',
        reason: `the work tree could not be snapshotted before a command (${message}); its changes cannot be undone`,
      });
    }
  }

  /** Restores the most recent turn with checkpoints and forgets it; undefined when there is none. */
  async undoLastTurn(): Promise<UndoResult | undefined> {
    const turn = this.turns.pop();
    if (turn === undefined) return undefined;
    if (turn === this.current) this.current = newTurn(turn.turn);
    const result: UndoResult = { turn: turn.turn, restored: [], removed: [] };
    for (const checkpoint of [...turn.checkpoints].reverse()) {
      if (checkpoint.kind === 'file') await this.restoreFile(checkpoint.saved, result);
      else if (checkpoint.kind === 'tree')
        await this.restoreTree(checkpoint, result).catch((error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          result.failed = [...(result.failed ?? []), `the work tree snapshot (${message})`];
        });
      else result.unrestorable = checkpoint.reason;
    }
    result.restored = unique(result.restored);
    result.removed = unique(result.removed);
    await this.releaseSpills();
    return result;
  }

  /**
   * Each workspace path the kept turns changed, as it was before the first of them changed it
   * (null: it did not exist), for /diff. Paths are workspace-relative, POSIX.
   */
  async originals(): Promise<Map<string, Buffer | null>> {
    const originals = new Map<string, Buffer | null>();
    for (const checkpoint of this.turns.flatMap((turn) => turn.checkpoints)) {
      if (checkpoint.kind === 'file') {
        const shown = toPosix(checkpoint.saved.relativePath);
        if (!originals.has(shown)) originals.set(shown, await readSaved(checkpoint.saved));
      } else if (checkpoint.kind === 'tree') {
        const { work, tree } = checkpoint;
        for (const difference of await diffSnapshots(work, tree, await snapshotWorkTree(work))) {
          if (originals.has(difference.path) || difference.before?.mode === '160000') continue;
          const before = difference.before;
          originals.set(difference.path, before ? await readBlob(work, before.blob) : null);
        }
      }
    }
    return originals;
  }

  /** Deletes spilled copies and the snapshot repository; call when the session ends. */
  async dispose(): Promise<void> {
    this.turns.length = 0;
    await this.releaseSpills();
    const snapshots = await this.snapshotFolder;
    this.snapshotFolder = undefined;
    if (snapshots !== undefined) await rm(snapshots, { recursive: true, force: true });
  }

  private record(checkpoint: Checkpoint): void {
    if (this.turns.at(-1) !== this.current) {
      this.turns.push(this.current);
      if (this.turns.length > MAX_UNDO_TURNS) this.turns.shift();
    }
    this.current.checkpoints.push(checkpoint);
  }

  private async restoreFile(saved: SavedFile, result: UndoResult): Promise<void> {
    const shown = toPosix(saved.relativePath);
    if (saved.kind === 'absent') {
      const problem = await removeWorkspaceEntry(this.root, saved.relativePath, {
        linksToo: false,
      });
      if (problem === undefined) {
        result.removed.push(shown);
        await removeEmptyFolders(this.root, saved.missingFolders);
      } else result.failed = [...(result.failed ?? []), problem];
      return;
    }
    const problem = await restoreWorkspaceFile(
      this.root,
      saved.relativePath,
      saved.kind === 'file'
        ? { kind: 'bytes', bytes: saved.bytes, mode: saved.mode }
        : { kind: 'spilled', spillPath: saved.spillPath, mode: saved.mode },
    );
    if (problem === undefined) result.restored.push(shown);
    else result.failed = [...(result.failed ?? []), problem];
  }

  private async restoreTree(
    checkpoint: { work: GitWorkTree; tree: string },
    result: UndoResult,
  ): Promise<void> {
    const { work } = checkpoint;
    const now = await snapshotWorkTree(work);
    for (const difference of await diffSnapshots(work, checkpoint.tree, now)) {
      const relativePath = difference.path.split('/').join(path.sep);
      const before = difference.before;
      let problem: string | undefined;
      if (before === undefined) {
        problem = await removeWorkspaceEntry(this.root, relativePath, { linksToo: true });
        if (problem === undefined) result.removed.push(difference.path);
      } else if (before.mode === '160000') {
        problem = `${difference.path} is a submodule; undo does not change submodules`;
      } else {
        const bytes = await readBlob(work, before.blob);
        problem = await restoreWorkspaceFile(
          this.root,
          relativePath,
          before.mode === '120000'
            ? { kind: 'link', target: bytes.toString('utf8') }
            : { kind: 'bytes', bytes, mode: before.mode === '100755' ? 0o755 : 0o644 },
        );
        if (problem === undefined) result.restored.push(difference.path);
      }
      if (problem !== undefined) result.failed = [...(result.failed ?? []), problem];
    }
  }

  private nextSpillPath(): Promise<string> {
    // mkdtemp creates the folder 0700: spilled copies of the user's files stay private.
    this.spillFolder ??= mkdtemp(path.join(os.tmpdir(), 'oy-checkpoint-'));
    return this.spillFolder.then((folder) => path.join(folder, `file-${++this.spillCount}`));
  }

  private async releaseSpills(): Promise<void> {
    // Spilled copies of turns still kept must stay; only drop the folder once none is left.
    const isInUse = this.turns.some((turn) =>
      turn.checkpoints.some((c) => c.kind === 'file' && c.saved.kind === 'spilled'),
    );
    if (isInUse || this.spillFolder === undefined) return;
    const folder = await this.spillFolder;
    this.spillFolder = undefined;
    await rm(folder, { recursive: true, force: true });
  }
}

function newTurn(turn: number): TurnRecord {
  return { turn, checkpoints: [], savedFiles: new Set() };
}

async function readSaved(saved: SavedFile): Promise<Buffer | null> {
  if (saved.kind === 'absent') return null;
  return saved.kind === 'file' ? saved.bytes : readFile(saved.spillPath);
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
