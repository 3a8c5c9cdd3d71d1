import { openForWrite } from '../../../safety/paths/open-for-write.js';
import type { ToolContext } from '../tool-types.js';
import { ToolFailure } from '../tool-types.js';
import { readExistingFile, type ExistingFile } from './read-existing-file.js';

/** One file change a tool planned (and the user may have approved as a diff). */
export interface PlannedFile {
  absolutePath: string;
  relativePath: string;
  /** The file as the plan saw it; the write refuses if it changed since, so the approved diff stays true. */
  before: ExistingFile;
  content: string;
}

/** Checkpoints, then writes a planned file race-safely (openForWrite: no links, parents created). */
export async function writePlannedFile(context: ToolContext, planned: PlannedFile): Promise<void> {
  const now = await readExistingFile(planned.absolutePath, planned.relativePath);
  if (!isSameFile(now, planned.before))
    throw new ToolFailure(
      `${planned.relativePath} changed after the change was planned; read it again and retry`,
    );
  await context.checkpoints.beforeFileChange(planned.absolutePath);
  const opened = await openForWrite(context.workspaceRoot, planned.relativePath);
  if (!opened.ok) throw new ToolFailure(opened.reason);
  try {
    await opened.handle.writeFile(planned.content, 'utf8');
  } finally {
    await opened.handle.close();
  }
}

function isSameFile(a: ExistingFile, b: ExistingFile): boolean {
  return describeFile(a) === describeFile(b);
}

// Binary and large files are compared by size only: they are overwritten whole, never edited.
function describeFile(file: ExistingFile): string {
  if (file.kind === 'absent') return 'absent';
  if (file.kind === 'text') return `text:${file.text}`;
  return `${file.kind}:${file.bytes}`;
}
