import { existsSync } from 'node:fs';
import { readMentionedFile, type MentionedFileOptions } from '../../../agent/index.js';
import { resolveWorkspacePath } from '../../../safety/paths/resolve-workspace-path.js';
import { findMentions } from './find-mentions.js';

/** The chat's policy, grants, redactor and interaction, as the read tool gets them. */
export type AttachOptions = MentionedFileOptions;

/** The prompt with its files appended, or why it cannot be sent as typed. */
export type AttachResult =
  | { ok: true; prompt: string; attached: string[]; notFound: string[] }
  | { ok: false; problems: string[] };

/**
 * `@path` in a prompt attaches the file, read through the read tool's own door (readMentionedFile).
 * A mention that names no file is left as text; any refusal stops the prompt, so the user decides.
 */
export async function attachMentionedFiles(
  prompt: string,
  options: AttachOptions,
): Promise<AttachResult> {
  const attachments: string[] = [];
  const attached: string[] = [];
  const notFound: string[] = [];
  const problems: string[] = [];
  for (const [index, mentioned] of findMentions(prompt).entries()) {
    const resolved = resolveWorkspacePath(options.workspaceRoot, mentioned, 'read');
    if (resolved.ok && !existsSync(resolved.absolutePath)) {
      notFound.push(mentioned);
      continue;
    }
    const result = await readMentionedFile(mentioned, `attach-${index + 1}`, options);
    const parsed = JSON.parse(result.content) as ReadResult;
    if (!result.ok || parsed.content === undefined) {
      problems.push(`@${mentioned}: ${parsed.error ?? 'could not be read'}`);
      continue;
    }
    attached.push(parsed.path ?? mentioned);
    attachments.push(formatAttachment(parsed, mentioned));
  }
  if (problems.length > 0) return { ok: false, problems };
  const text = attachments.length === 0 ? prompt : `${prompt}\n\n${attachments.join('\n\n')}`;
  return { ok: true, prompt: text, attached, notFound };
}

interface ReadResult {
  path?: string;
  content?: string;
  lines_shown?: number;
  total_lines?: number;
  has_more?: boolean;
  error?: string;
}

function formatAttachment(read: ReadResult, mentioned: string): string {
  const shown = read.has_more
    ? `lines 1-${read.lines_shown} of ${read.total_lines}; read the rest with the read tool`
    : `${read.total_lines} lines`;
  return `Attached file ${read.path ?? mentioned} (${shown}, numbered as the read tool numbers them):\n${read.content}`;
}
