import { readFile } from 'node:fs/promises';
import { parseSessionLine } from './session-record-schema.js';
import type { SessionRecord } from './session-types.js';

export type SessionHeader = Extract<SessionRecord, { type: 'session' }>;

export interface SessionFileContent {
  header: SessionHeader;
  /** Every readable line after the header, in order; torn and unknown lines are left out. */
  records: SessionRecord[];
  /** The numbers (from 1) of the lines left out: torn by a crash, edited by hand, or from a newer oy. */
  unreadableLines: number[];
}

/** Reads a session file; undefined when it cannot be read or its first line is not a session record. */
export async function readSessionFile(file: string): Promise<SessionFileContent | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const [first = '', ...rest] = text.split('\n');
  const header = parseSessionLine(first);
  if (header?.type !== 'session') return undefined;
  const records: SessionRecord[] = [];
  const unreadableLines: number[] = [];
  for (const [index, line] of rest.entries()) {
    if (line.trim() === '') continue;
    const record = parseSessionLine(line);
    // A second header can only come from a garbled file; it is not history.
    if (record !== undefined && record.type !== 'session') records.push(record);
    else unreadableLines.push(index + 2);
  }
  return { header, records, unreadableLines };
}
