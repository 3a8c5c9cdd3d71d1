import { readFile } from 'node:fs/promises';
import { resolveWorkspacePath } from '../../safety/paths/resolve-workspace-path.js';

/** Instruction files together may add at most this much to the system prompt (product.md). */
export const MAX_INSTRUCTIONS_BYTES = 32 * 1024;
/** Workspace files read as project instructions, in this order. */
export const PROJECT_INSTRUCTION_FILES = ['AGENTS.md', 'OY.md'] as const;

export interface InstructionFile {
  /** What the prompt calls it: `AGENTS.md (workspace)` or the user file's path. */
  label: string;
  text: string;
  isTruncated: boolean;
}

export interface LoadedInstructions {
  files: InstructionFile[];
  /** Files skipped and why (a symlink out of the workspace, unreadable), for a warning. */
  warnings: string[];
}

export interface LoadInstructionsOptions {
  workspaceRoot: string;
  /** `<XDG_CONFIG_HOME or ~/.config>/oy/instructions.md`, worked out by the caller. */
  userInstructionsFile?: string;
  redact(text: string): string;
}

/**
 * Reads AGENTS.md / OY.md at the workspace root (confined like any tool read, so a symlink out of
 * the workspace is refused) and the user's instructions.md; redacted, capped at 32 KiB in all.
 */
export async function loadInstructions(
  options: LoadInstructionsOptions,
): Promise<LoadedInstructions> {
  const files: InstructionFile[] = [];
  const warnings: string[] = [];
  let budget = MAX_INSTRUCTIONS_BYTES;
  const add = (label: string, raw: string) => {
    const bytes = Buffer.from(raw, 'utf8');
    const isTruncated = bytes.length > budget;
    // Cutting bytes may split a character; the decoder drops the broken tail.
    const kept = isTruncated
      ? bytes
          .subarray(0, budget)
          .toString('utf8')
          .replace(/\uFFFD$/u, '')
      : raw;
    budget -= Buffer.byteLength(kept, 'utf8');
    files.push({ label, text: options.redact(kept), isTruncated });
  };
  if (options.userInstructionsFile !== undefined) {
    const text = await readOptional(options.userInstructionsFile, warnings);
    if (text !== undefined) add(`${options.userInstructionsFile} (user instructions)`, text);
  }
  for (const name of PROJECT_INSTRUCTION_FILES) {
    if (budget <= 0) break;
    const resolved = resolveWorkspacePath(options.workspaceRoot, name, 'read');
    if (!resolved.ok) {
      if (resolved.rule !== 'invalid-path') warnings.push(`${name} skipped: ${resolved.reason}`);
      continue;
    }
    const text = await readOptional(resolved.absolutePath, warnings);
    if (text !== undefined) add(`${name} (workspace)`, text);
  }
  return { files, warnings };
}

async function readOptional(file: string, warnings: string[]): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      warnings.push(`${file} skipped (${code ?? 'unreadable'})`);
    return undefined;
  }
}
