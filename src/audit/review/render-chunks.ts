import { readCandidate } from '../collect/read-candidate.js';
import { renderPart } from '../chunk/render-part.js';
import { hashText } from '../scan/scan-text.js';
import type { Redactor } from '../../safety/redact/redactor.js';
import type { CandidateFile, Chunk } from '../types.js';

export type RenderedChunk =
  { chunk: Chunk; text: string } | { chunk: Chunk; failure: { path: string; reason: string } };

export interface RenderChunksOptions {
  /** Candidates by path, to re-read each file. */
  candidates: ReadonlyMap<string, CandidateFile>;
  /** sha256 of each file as scanned: a file that changed since is not sent. */
  sourceHashes: ReadonlyMap<string, string>;
  /**
   * A fresh redactor for each file: placeholder numbers count per file, so a secret added to one
   * file changes no other file's text, and no other chunk's cache key.
   */
  createRedactor: () => Redactor;
  maxFileBytes: number;
}

/**
 * The text a model would see for each chunk: every part's header and lines, read again and redacted.
 * Files are read once per call and each is redacted on its own, so its placeholder numbers depend on it alone.
 */
export async function renderChunks(
  chunks: readonly Chunk[],
  options: RenderChunksOptions,
): Promise<{ rendered: RenderedChunk[]; redactedTexts: ReadonlyMap<string, string> }> {
  const redactedByPath = new Map<string, string>();
  const rendered: RenderedChunk[] = [];
  for (const chunk of chunks) {
    let text = '';
    let failure: { path: string; reason: string } | undefined;
    for (const part of chunk.parts) {
      const fileText = redactedByPath.get(part.path) ?? (await readRedacted(part.path, options));
      if (typeof fileText !== 'string') {
        failure = fileText;
        break;
      }
      redactedByPath.set(part.path, fileText);
      text += renderPart(part, fileText);
    }
    rendered.push(failure ? { chunk, failure } : { chunk, text });
  }
  return { rendered, redactedTexts: redactedByPath };
}

async function readRedacted(
  filePath: string,
  options: RenderChunksOptions,
): Promise<string | { path: string; reason: string }> {
  const candidate = options.candidates.get(filePath);
  if (!candidate) return { path: filePath, reason: 'missing' };
  const read = await readCandidate(candidate, options.maxFileBytes);
  if ('entry' in read) return { path: filePath, reason: read.entry.reason ?? 'unreadable' };
  if (hashText(read.file.text) !== options.sourceHashes.get(filePath))
    return { path: filePath, reason: 'changed' };
  return options.createRedactor().redact(read.file.text).text;
}
