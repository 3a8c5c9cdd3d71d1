import fs from 'node:fs';
import path from 'node:path';
import { createRedactor } from '../../../safety/redact/redactor.js';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
// The file is appended to on each submit and rewritten down to the limit once it holds twice as many lines.
const REWRITE_FACTOR = 2;

/** Submitted inputs, oldest first, kept in a file of JSON strings, one a line. */
export interface HistoryStore {
  readonly entries: readonly string[];
  /** Adds an entry (not a repeat of the last one) and saves it; saving is best-effort. */
  add(entry: string): void;
}

/** Secrets typed into chat are redacted in the session; the history file must not keep them either. */
function redactForHistory(text: string): string {
  return createRedactor().redact(text).text;
}

/**
 * Opens the history in `file` (null: memory only). Every entry is redacted before it is kept or
 * saved, and a file written before that (holding a secret in clear) is rewritten redacted.
 */
export function openHistoryStore(
  file: string | null,
  maxEntries: number,
  redact: (text: string) => string = redactForHistory,
): HistoryStore {
  const loaded = file === null ? undefined : loadHistoryFile(file, redact);
  let entries = (loaded?.entries ?? []).slice(-maxEntries);
  let fileLines = loaded?.lineCount ?? 0;
  let needsRewrite = loaded?.isDamaged ?? false;
  if (file !== null && loaded?.heldSecret === true) {
    try {
      rewriteHistoryFile(file, entries);
      fileLines = entries.length;
      needsRewrite = false;
    } catch {
      // Retried on the next save, as for any damaged file.
    }
  }

  const save = (entry: string) => {
    if (file === null) return;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: DIR_MODE });
      if (needsRewrite || fileLines + 1 > maxEntries * REWRITE_FACTOR) {
        rewriteHistoryFile(file, entries);
        fileLines = entries.length;
        needsRewrite = false;
      } else {
        appendHistoryLine(file, entry);
        fileLines++;
      }
    } catch {
      // History is a convenience: a read-only or full disk must not stop the chat.
    }
  };

  return {
    get entries() {
      return entries;
    },
    add(typed) {
      const entry = redact(typed);
      if (entry.trim() === '' || entries.at(-1) === entry) return;
      entries = [...entries, entry].slice(-maxEntries);
      save(entry);
    },
  };
}

interface LoadedHistory {
  entries: string[];
  lineCount: number;
  /** Lines that are not JSON strings, or a last line cut short: rewrite before appending. */
  isDamaged: boolean;
  /** An entry held a secret in clear (saved by an older version): rewrite it at once. */
  heldSecret: boolean;
}

function loadHistoryFile(
  file: string,
  redact: (text: string) => string,
): LoadedHistory | undefined {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const lines = raw.split('\n');
  const isCutShort = lines.at(-1) !== '';
  if (!isCutShort) lines.pop();
  const entries: string[] = [];
  let isDamaged = isCutShort;
  let heldSecret = false;
  for (const line of lines) {
    const entry = parseLine(line);
    if (entry === undefined) {
      isDamaged = true;
      continue;
    }
    const redacted = redact(entry);
    if (redacted !== entry) heldSecret = true;
    entries.push(redacted);
  }
  return { entries, lineCount: lines.length, isDamaged, heldSecret };
}

function parseLine(line: string): string | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'string' && value.trim() !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}

function appendHistoryLine(file: string, entry: string): void {
  const fd = fs.openSync(file, 'a', FILE_MODE);
  try {
    if ((fs.fstatSync(fd).mode & 0o777) !== FILE_MODE) fs.fchmodSync(fd, FILE_MODE);
    fs.writeSync(fd, `${JSON.stringify(entry)}\n`);
  } finally {
    fs.closeSync(fd);
  }
}

function rewriteHistoryFile(file: string, entries: readonly string[]): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const body = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
  fs.writeFileSync(temporary, body, { mode: FILE_MODE });
  fs.chmodSync(temporary, FILE_MODE);
  fs.renameSync(temporary, file);
}
