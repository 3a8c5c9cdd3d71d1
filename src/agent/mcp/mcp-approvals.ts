import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../shared/write-file-atomic.js';

/** In the state directory: the user's answers, never in the workspace where a repository could write them. */
const APPROVALS_FILE = 'mcp-approvals.json';

const approvalsSchema = z.object({
  version: z.literal(1),
  /** Workspace real path to the hashes of `.mcp.json` contents the user approved there. */
  approved: z.record(z.string(), z.array(z.string())),
});

type Approvals = z.infer<typeof approvalsSchema>;

/** Whether the user approved exactly this `.mcp.json` content in this workspace. */
export async function isProjectMcpApproved(
  stateDir: string,
  workspaceRoot: string,
  hash: string,
): Promise<boolean> {
  const approvals = await readApprovals(stateDir);
  return approvals.approved[await realpath(workspaceRoot)]?.includes(hash) === true;
}

/** Remembers the user's approval of this content of the workspace's `.mcp.json`. */
export async function approveProjectMcp(
  stateDir: string,
  workspaceRoot: string,
  hash: string,
): Promise<void> {
  const approvals = await readApprovals(stateDir);
  const key = await realpath(workspaceRoot);
  const hashes = new Set(approvals.approved[key] ?? []);
  hashes.add(hash);
  approvals.approved[key] = [...hashes];
  await writeFileAtomic(path.join(stateDir, APPROVALS_FILE), JSON.stringify(approvals, null, 2), {
    mode: 0o600,
    dirMode: 0o700,
  });
}

async function readApprovals(stateDir: string): Promise<Approvals> {
  try {
    const parsed = approvalsSchema.safeParse(
      JSON.parse(await readFile(path.join(stateDir, APPROVALS_FILE), 'utf8')),
    );
    if (parsed.success) return parsed.data;
  } catch {
    // Missing or unreadable: nothing approved.
  }
  return { version: 1, approved: {} };
}
