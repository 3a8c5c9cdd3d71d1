import { createControlNeutralizer } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';
import { colorizeDiffLine } from './colorize-diff.js';
import { highlightCodeLine } from './highlight-code.js';

/** A sink for streamed assistant text. */
export interface MarkdownStream {
  write(text: string): void;
  /** Writes any unfinished line and forgets an open code block: the answer is over. */
  end(): void;
}

/** Width of the rule drawn for `---`. */
const RULE_WIDTH = 40;
const FENCE = /^\s*(```+|~~~+)\s*([\w+#.-]*)/u;

/**
 * Terminal Markdown, rendered line by line as lines complete: headings bold, list bullets `•`,
 * quotes with a bar, fenced code highlighted (diffs coloured as diffs), inline `code`, **bold** and
 * *emphasis*. With `isRendered` false the text passes through unformatted. Either way its control
 * characters are shown inertly before anything is coloured.
 */
export function createMarkdownStream(
  out: { write(text: string): unknown },
  c: Colors,
  isRendered: boolean,
): MarkdownStream {
  const neutralizer = createControlNeutralizer();
  if (!isRendered) {
    const pass = (text: string) => void (text === '' || out.write(text));
    return { write: (text) => pass(neutralizer.push(text)), end: () => pass(neutralizer.end()) };
  }
  let pending = '';
  let fence: { marker: string; language: string } | undefined;

  const renderLine = (line: string): string => {
    const opening = FENCE.exec(line);
    if (fence !== undefined) {
      if (opening !== null && opening[1]!.startsWith(fence.marker) && opening[2] === '') {
        fence = undefined;
        return c.dim(line);
      }
      return fence.language === 'diff' || fence.language === 'patch'
        ? colorizeDiffLine(line, c)
        : highlightCodeLine(line, fence.language, c);
    }
    if (opening !== null) {
      fence = { marker: opening[1]!, language: opening[2]!.toLowerCase() };
      return c.dim(line);
    }
    return renderProseLine(line, c);
  };

  return {
    write(text) {
      pending += neutralizer.push(text);
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        out.write(renderLine(pending.slice(0, newline)) + '\n');
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    },
    end() {
      pending += neutralizer.end();
      if (pending !== '') out.write(renderLine(pending));
      pending = '';
      fence = undefined;
    },
  };
}

/** One line outside a code block. */
export function renderProseLine(line: string, c: Colors): string {
  const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/u.exec(line);
  if (heading !== null) {
    const text = renderInline(heading[2]!, c);
    return heading[1]!.length === 1 ? c.bold(c.underline(text)) : c.bold(text);
  }
  if (/^\s*([-*_])(\s*\1){2,}\s*$/u.test(line)) return c.dim('─'.repeat(RULE_WIDTH));
  const bullet = /^(\s*)[-*+]\s+(.*)$/u.exec(line);
  if (bullet !== null) {
    const task = /^\[([ xX])\]\s+(.*)$/u.exec(bullet[2]!);
    if (task !== null)
      return `${bullet[1]}${task[1] === ' ' ? '☐' : c.green('☑')} ${renderInline(task[2]!, c)}`;
    return `${bullet[1]}${c.cyan('•')} ${renderInline(bullet[2]!, c)}`;
  }
  const numbered = /^(\s*)(\d+[.)])\s+(.*)$/u.exec(line);
  if (numbered !== null)
    return `${numbered[1]}${c.cyan(numbered[2]!)} ${renderInline(numbered[3]!, c)}`;
  const quote = /^\s*>\s?(.*)$/u.exec(line);
  if (quote !== null) return `${c.dim('│')} ${c.italic(renderInline(quote[1]!, c))}`;
  return renderInline(line, c);
}

/** Inline spans: `code` first (nothing inside it is formatted), then links, **bold** and *emphasis*. */
export function renderInline(text: string, c: Colors): string {
  return text
    .split(/(`+[^`]*`+)/u)
    .map((part, index) => {
      if (index % 2 === 1) return c.cyan(part.replace(/^`+|`+$/gu, ''));
      return part
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/gu, (_, label: string, url: string) =>
          label === url ? c.underline(url) : `${label} ${c.dim(`(${c.underline(url)})`)}`,
        )
        .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/gu, (_, _mark: string, inner: string) =>
          c.bold(inner),
        )
        .replace(
          /(^|[^\w*])([*_])(?=\S)(.+?)(?<=\S)\2(?![\w*])/gu,
          (_, before: string, _mark: string, inner: string) => before + c.italic(inner),
        );
    })
    .join('');
}
