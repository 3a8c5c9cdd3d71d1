import { formatPathLabel } from '../chunk/format-part-header.js';
import type { SecurityHint } from '../types.js';

/**
 * Characters of the hint list in a map prompt: about 60 hints, roughly 1,000 tokens. A chunk of
 * risky code can carry hundreds; the riskiest come first and the rest are counted.
 */
export const HINTS_MAX_CHARS = 4_000;

const SEVERITY_RANK = { critical: 0, high: 1, medium: 2, low: 3, info: 4 } as const;

/**
 * The chunk's hints, one line each (`- <rule id> <path>:<line> <message>`), most severe first,
 * then in path and line order; `(none)` when there are none. Never longer than `maxChars`.
 */
export function renderPromptHints(
  hints: readonly SecurityHint[],
  maxChars: number = HINTS_MAX_CHARS,
): string {
  if (hints.length === 0) return '(none)';
  const ordered = [...hints].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.line - b.line,
  );
  const lines: string[] = [];
  let length = 0;
  for (const [index, hint] of ordered.entries()) {
    const line = `- ${hint.ruleId} ${formatPathLabel(hint.path)}:${hint.line} ${oneLine(hint.message)}`;
    const remaining = ordered.length - index - 1;
    const reserve = remaining > 0 ? omittedLine(remaining).length + 1 : 0;
    const newline = lines.length > 0 ? 1 : 0;
    if (length + newline + line.length + reserve > maxChars) {
      lines.push(omittedLine(ordered.length - index));
      break;
    }
    length += newline + line.length;
    lines.push(line);
  }
  return lines.join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function omittedLine(count: number): string {
  return `(+${count} more hint${count === 1 ? '' : 's'} not listed)`;
}
