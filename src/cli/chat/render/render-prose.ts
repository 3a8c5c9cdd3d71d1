import type { Colors } from '../../terminal.js';
import { visibleWidth } from './wrap-text.js';

/** Widest rule drawn for `---`. */
const RULE_WIDTH = 40;

/** One line outside a code block: what starts it (kept on the first row) and its wrapped text. */
export interface RenderedProse {
  /** `first` starts the first row; `rest` indents the rows it wraps to. Undefined: no prefix. */
  prefix?: { first: string; rest: string };
  body: string;
}

/** A prose line (already neutralised) for the terminal, ready to wrap at `columns`. */
export function renderProse(line: string, c: Colors, columns?: number): RenderedProse {
  const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/u.exec(line);
  if (heading !== null) {
    const text = renderInline(heading[2]!, c);
    return { body: heading[1]!.length === 1 ? c.bold(c.underline(text)) : c.bold(text) };
  }
  if (/^\s*([-*_])(\s*\1){2,}\s*$/u.test(line))
    return { body: c.dim('─'.repeat(Math.min(RULE_WIDTH, columns ?? RULE_WIDTH))) };
  const bullet = /^(\s*)[-*+]\s+(.*)$/u.exec(line);
  if (bullet !== null) {
    const task = /^\[([ xX])\]\s+(.*)$/u.exec(bullet[2]!);
    if (task !== null)
      return withPrefix(
        `${bullet[1]}${task[1] === ' ' ? '☐' : c.green('☑')} `,
        renderInline(task[2]!, c),
      );
    return withPrefix(`${bullet[1]}${c.cyan('•')} `, renderInline(bullet[2]!, c));
  }
  const numbered = /^(\s*)(\d+[.)])\s+(.*)$/u.exec(line);
  if (numbered !== null)
    return withPrefix(`${numbered[1]}${c.cyan(numbered[2]!)} `, renderInline(numbered[3]!, c));
  const quote = /^\s*>\s?(.*)$/u.exec(line);
  if (quote !== null) {
    const bar = `${c.dim('│')} `;
    return { prefix: { first: bar, rest: bar }, body: c.italic(renderInline(quote[1]!, c)) };
  }
  const indent = /^\s*/u.exec(line)![0];
  return indent === ''
    ? { body: renderInline(line, c) }
    : withPrefix(indent, renderInline(line.slice(indent.length), c));
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

function withPrefix(first: string, body: string): RenderedProse {
  return { prefix: { first, rest: ' '.repeat(visibleWidth(first)) }, body };
}
