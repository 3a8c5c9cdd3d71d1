import { resolveWorkspacePath } from '../../safety/paths/resolve-workspace-path.js';
import { readFileHead } from './read-file-head.js';

/** Instruction files together may add at most this much to the system prompt (README.md). */
export const MAX_INSTRUCTIONS_BYTES = 32 * 1024;
/**
 * Bytes read past what the budget keeps, so a secret across the cut is seen whole and redacted
 * before the cut: longer than any token the redactor knows (a JWT is at most about 25 KiB).
 */
const READ_MARGIN_BYTES = 32 * 1024;
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
  /** Reads at most `maxBytes` from the start of a file; tests wrap it to count the bytes read. */
  readHead?: (file: string, maxBytes: number) => Promise<Buffer>;
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
  const readHead = options.readHead ?? readFileHead;
  const read = (file: string) => readOptional(file, budget + READ_MARGIN_BYTES, readHead, warnings);
  // Redact, then cut: a cut first would leave a token's prefix, too short to recognise.
  const add = (label: string, head: Buffer, isWhole: boolean) => {
    const redacted = Buffer.from(options.redact(head.toString('utf8')), 'utf8');
    const isTruncated = !isWhole || redacted.length > budget;
    // Cutting bytes may split a character; the decoder drops the broken tail.
    const kept = redacted
      .subarray(0, budget)
      .toString('utf8')
      .replace(/\uFFFD$/u, '');
    budget -= Buffer.byteLength(kept, 'utf8');
    files.push({ label, text: kept, isTruncated });
  };
  if (options.userInstructionsFile !== undefined) {
    const head = await read(options.userInstructionsFile);
    if (head !== undefined)
      add(`${options.userInstructionsFile} (user instructions)`, head.bytes, head.isWhole);
  }
  for (const name of PROJECT_INSTRUCTION_FILES) {
    if (budget <= 0) break;
    const resolved = resolveWorkspacePath(options.workspaceRoot, name, 'read');
    if (!resolved.ok) {
      if (resolved.rule !== 'invalid-path') warnings.push(`${name} skipped: ${resolved.reason}`);
      continue;
    }
    const head = await read(resolved.absolutePath);
    if (head !== undefined) add(`${name} (workspace)`, head.bytes, head.isWhole);
  }
  return { files, warnings };
}

/** The first `maxBytes` of a file (one more byte tells whether there is more), or why not. */
async function readOptional(
  file: string,
  maxBytes: number,
  readHead: (file: string, maxBytes: number) => Promise<Buffer>,
  warnings: string[],
): Promise<{ bytes: Buffer; isWhole: boolean } | undefined> {
  try {
    const bytes = await readHead(file, maxBytes + 1);
    return bytes.length > maxBytes
      ? { bytes: bytes.subarray(0, maxBytes), isWhole: false }
      : { bytes, isWhole: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      warnings.push(`${file} skipped (${code ?? 'unreadable'})`);
    return undefined;
  }
}
