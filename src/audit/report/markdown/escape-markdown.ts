import { revealInvisible } from '../reveal-invisible.js';

// Characters that start Markdown, GFM or HTML syntax anywhere in a line: emphasis, code, links,
// images, raw HTML, entities, tables, strikethrough, math, and Liquid tags (`{{`, `{%`) that
// static-site generators such as Jekyll expand before Markdown is read.
const INLINE_SYNTAX = /[\\`*_[\]<>&|~${}]/g;
// What starts a block at the beginning of a line: a heading, list item, quote or setext underline;
// a number starts an ordered list only when a space or the line end follows its `.` or `)`.
const BLOCK_START = /^([#+\-=>]|\d{1,9}[.)](?=\s|$))/;
const LINE_BREAK = /\r\n|\r|\n/g;

// A code span that opens and closes on one line: a run of backticks, then the same run again.
const ONE_LINE_CODE_SPAN = /(?<!`)(`+)(?!`)(.*?[^`])\1(?!`)/g;

export interface EscapeOptions {
  /** Keep one-line code spans (`` `execFile` ``) as code: for prose, never for table cells. */
  keepsCodeSpans?: boolean;
}

/**
 * Text from the report (a title, a model's impact or fix) as Markdown that renders as that text:
 * it can add no heading, list, table, link, HTML or emphasis of its own. Line breaks are kept.
 */
export function escapeMarkdownText(text: string, options: EscapeOptions = {}): string {
  return revealInvisible(text)
    .split(LINE_BREAK)
    .map((line) => escapeLine(line.trimStart(), options.keepsCodeSpans === true))
    .join('\n');
}

/** Like {@link escapeMarkdownText}, on one line: for table cells, headings and list items. */
export function escapeMarkdownLine(text: string): string {
  return escapeMarkdownText(joinLines(text));
}

function escapeLine(line: string, keepsCodeSpans: boolean): string {
  if (!keepsCodeSpans) return escapeBlockStart(escapeInline(line));
  let escaped = '';
  let plainStart = 0;
  for (const match of line.matchAll(ONE_LINE_CODE_SPAN)) {
    escaped += escapeInline(line.slice(plainStart, match.index)) + match[0];
    plainStart = match.index + match[0].length;
  }
  return escapeBlockStart(escaped + escapeInline(line.slice(plainStart)));
}

function escapeInline(text: string): string {
  return text.replace(INLINE_SYNTAX, (character) => `\\${character}`);
}

function escapeBlockStart(line: string): string {
  return line.replace(BLOCK_START, (start) =>
    /\d/.test(start[0]!) ? `${start.slice(0, -1)}\\${start.slice(-1)}` : `\\${start}`,
  );
}

/** An inline code span that holds `text` verbatim on one line, whatever backticks it contains. */
export function formatCodeSpan(text: string): string {
  const content = revealInvisible(joinLines(text));
  if (content === '') return '';
  const fence = '`'.repeat(longestRun(content, '`') + 1);
  // A space each side keeps an edge backtick from joining the fence, and keeps edge spaces that
  // Markdown would otherwise strip (it removes one space from each side of a padded span).
  const isPadded =
    /^`|`$/.test(content) ||
    (content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '');
  const padding = isPadded ? ' ' : '';
  return `${fence}${padding}${content}${padding}${fence}`;
}

/** A fenced code block whose fence is longer than any backtick run inside it. */
export function formatCodeBlock(text: string): string {
  const content = revealInvisible(text.replace(LINE_BREAK, '\n')).replace(/\n+$/, '');
  const fence = '`'.repeat(Math.max(3, longestRun(content, '`') + 1));
  return `${fence}text\n${content}\n${fence}`;
}

/**
 * One GFM table row. Each cell must come from {@link escapeMarkdownLine} (or be a number): a code
 * span cannot hold every text in a table cell, because GFM splits the row before reading spans.
 */
export function formatTableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** A GFM table: a header row, its delimiter, then the rows. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  return [
    formatTableRow(header),
    formatTableRow(header.map(() => '---')),
    ...rows.map(formatTableRow),
  ].join('\n');
}

function joinLines(text: string): string {
  return text.replace(LINE_BREAK, ' ');
}

function longestRun(text: string, character: string): number {
  let longest = 0;
  let current = 0;
  for (const each of text) {
    current = each === character ? current + 1 : 0;
    longest = Math.max(longest, current);
  }
  return longest;
}
