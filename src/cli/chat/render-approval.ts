import { summarizeAction, type ApprovalAnswer, type ApprovalRequest } from '../../agent/index.js';
import { describeHidden, fitBlock, fitLine } from '../../shared/terminal/fit-text.js';
import { formatCount } from '../../shared/terminal/describe-invisible.js';
import { showInvisible } from '../../shared/terminal/show-invisible.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';
import { colorizeDiff } from './colorize-diff.js';

/** The question after an approval preview shown character for character; anything but yes or always is no. */
export const APPROVAL_QUESTION = 'Allow? [y]es / [n]o / [a]lways for this session (default no): ';

/** The terminal the preview is fitted to. */
export interface ApprovalScreen {
  columns: number;
  rows: number;
}

/** What the user reads before answering (stderr), the question, and the whole call when the preview holds less. */
export interface ApprovalView {
  text: string;
  question: string;
  /** Nothing cut and every invisible run listed in order; present when `text` is not the call character for character. */
  full?: string;
}

/** A screen whose size is unknown (output to a file or a pipe). */
export const DEFAULT_APPROVAL_SCREEN: ApprovalScreen = { columns: 100, rows: 40 };

// Rows kept for the header, the command's folder, timeout and sandbox, "always" and the question.
const RESERVED_ROWS = 12;
const MIN_PREVIEW_ROWS = 6;
const MAX_PREVIEW_ROWS = 24;
// "always" names the command's words: at most this many rows of them.
const ALWAYS_ROWS = 3;
// A marker: `⟨8,000 spaces⟩`, `⟨escape ^[[2J⟩`, `⟨… 47,210 characters not shown …⟩` (show-invisible.ts).
const MARKER = /⟨[^⟨⟩]*⟩/gu;

/**
 * What the user reads before answering: `<tool> wants to: <summary>`, then the preview (a coloured
 * unified diff for write tools; the command, then its folder, timeout and sandbox for bash; the
 * arguments of an MCP call; the URL for webfetch), then what "always" would grant. Untrusted text is
 * made visible before it is coloured: control characters inertly, and in a command, arguments or a
 * URL every run of invisible characters as a counted marker (`⟨8,000 spaces⟩`). A command or argument
 * too long for the screen shows its head and tail and counts what lies between; the question then
 * states the whole length and offers `v` to read all of it: what is approved is what runs.
 */
export function renderApproval(
  request: ApprovalRequest,
  c: Colors,
  screen: ApprovalScreen = DEFAULT_APPROVAL_SCREEN,
): ApprovalView {
  const header = `${c.bold(oneLine(request.tool))} wants to: ${markers(summarizeAction(request.action), c)}`;
  const subject = subjectOf(request);
  const parts = [header];
  let isWhole = true;
  if (subject === undefined) {
    if (request.preview !== undefined) parts.push(renderDiffPreview(request.preview, c));
  } else {
    const shown = renderSubject(subject, c, screen);
    isWhole = shown.isWhole;
    parts.push(...shown.lines);
    if (subject.meta !== '')
      parts.push(...neutralizeControl(subject.meta.replace(/\n+$/u, '')).split('\n').map(c.dim));
  }
  if (request.always !== undefined) {
    const always = fitLine(request.always, screen.columns * ALWAYS_ROWS);
    isWhole &&= always === request.always;
    parts.push(c.dim(markers(always, c)));
  }
  const text = `${parts.join('\n')}\n`;
  if (isWhole) return { text, question: APPROVAL_QUESTION };
  const chars = formatCount([...(subject?.text ?? '')].length);
  return {
    text,
    question: `Allow all ${chars} characters? [y]es / [n]o / [a]lways for this session / [v]iew them all (default no): `,
    full: renderFull(request, subject),
  };
}

/** `y`/`yes` → yes, `a`/`always` → always, anything else (empty, Ctrl-C, Ctrl-D) → no. */
export function parseApprovalAnswer(answer: string | null): ApprovalAnswer {
  const word = (answer ?? '').trim().toLowerCase();
  if (word === 'y' || word === 'yes') return 'yes';
  if (word === 'a' || word === 'always') return 'always';
  return 'no';
}

/** Whether the answer asks to read the whole call (`v`, `view`). */
export function isViewAnswer(answer: string | null): boolean {
  const word = (answer ?? '').trim().toLowerCase();
  return word === 'v' || word === 'view';
}

/** The text an approval is about, shown faithfully; the rest of a bash preview (folder, timeout, sandbox). */
interface Subject {
  text: string;
  /** What each line starts with: `$ ` then `  ` for a command, nothing for arguments or a URL. */
  firstPrefix: string;
  prefix: string;
  meta: string;
}

function subjectOf(request: ApprovalRequest): Subject | undefined {
  const { action, preview } = request;
  if (action.tool === 'bash') {
    // The bash tool's preview is `$ <command>` then its folder, timeout and sandbox; the command is taken
    // from the action (exactly what runs), never read back out of the preview.
    const start = `$ ${action.command}\n`;
    const meta = preview?.startsWith(start) ? preview.slice(start.length) : (preview ?? '');
    return { text: action.command, firstPrefix: '$ ', prefix: '  ', meta };
  }
  if (preview === undefined) return undefined;
  switch (request.tool) {
    case 'write':
    case 'edit':
    case 'replace':
    case 'todo':
      return undefined;
    default:
      return { text: preview, firstPrefix: '', prefix: '', meta: '' };
  }
}

function renderSubject(
  subject: Subject,
  c: Colors,
  screen: ApprovalScreen,
): { lines: string[]; isWhole: boolean } {
  const rows = Math.min(MAX_PREVIEW_ROWS, Math.max(MIN_PREVIEW_ROWS, screen.rows - RESERVED_ROWS));
  const headRows = Math.ceil(rows / 2);
  const fitted = fitBlock(subject.text, {
    columns: Math.max(20, screen.columns),
    headRows,
    tailRows: rows - headRows - 1,
    prefixColumns: subject.prefix.length,
  });
  const style = subject.firstPrefix === '$ ' ? c.bold : (text: string) => text;
  const show = (line: string, index: number) =>
    style(`${index === 0 ? subject.firstPrefix : subject.prefix}${markers(line, c)}`);
  const lines = fitted.head.map(show);
  if (fitted.tail !== undefined) {
    const hidden = describeHidden(fitted.hiddenChars, fitted.hiddenLines);
    const note = `⟨… ${hidden} not shown; answer v to see them all …⟩`;
    lines.push(`${subject.prefix}${c.yellow(note)}`);
    lines.push(...fitted.tail.map((line) => style(`${subject.prefix}${markers(line, c)}`)));
  }
  return { lines, isWhole: fitted.tail === undefined && !fitted.hasMarkers };
}

/** The whole call for `v`: every character, each invisible run listed group by group in order. */
function renderFull(request: ApprovalRequest, subject: Subject | undefined): string {
  const parts: string[] = [];
  if (subject !== undefined) {
    const lines = showInvisible(subject.text, { isExact: true }).split('\n');
    parts.push(
      lines
        .map((line, index) => `${index === 0 ? subject.firstPrefix : subject.prefix}${line}`)
        .join('\n'),
    );
  }
  if (request.always !== undefined) parts.push(showInvisible(request.always, { isExact: true }));
  return `${parts.join('\n')}\n`;
}

function renderDiffPreview(preview: string, c: Colors): string {
  // A diff reads CRLF as a line break; its other control characters are shown.
  return colorizeDiff(neutralizeControl(preview).replace(/\n+$/u, ''), c);
}

/** Markers stand out from the text around them. */
function markers(text: string, c: Colors): string {
  return text.replace(MARKER, (marker) => c.yellow(marker));
}

function oneLine(text: string): string {
  return neutralizeControl(text, { lineBreaks: 'show' });
}
