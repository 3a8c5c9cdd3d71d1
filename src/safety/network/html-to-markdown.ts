import { createRequire } from 'node:module';
import { ConversionStopped, convertInChild } from './convert-in-child.js';
import { htmlToText } from './html-to-text.js';
import { nestsDeeperThan } from './measure-html-depth.js';

/** Deepest element nesting converted to Markdown: real pages stay well under 100. */
export const MAX_HTML_DEPTH = 200;
/** Largest page converted to Markdown; the converter's cost grows faster than the page. */
export const MAX_HTML_MARKDOWN_CHARS = 1024 * 1024;

export interface HtmlConversion {
  text: string;
  format: 'markdown' | 'text';
  /** Why the page came back as plain text, for the model. */
  note?: string;
}

export interface HtmlConversionOptions {
  /** Time left for the conversion: the tool's own deadline. */
  timeoutMs: number;
  /** Ctrl-C: ends the conversion at once. */
  signal: AbortSignal;
  /** Caps (tests lift them to reach the converter with a bomb). */
  maxDepth?: number;
  maxChars?: number;
}

// Resolved here, from oy's own install, never from the folder the converter runs in.
const TURNDOWN_PATH = createRequire(import.meta.url).resolve('turndown');

// Plain JavaScript run by the child, so it runs the same from source (tests) and from dist.
const CONVERTER_SOURCE = `
const TurndownService = require(process.argv.at(-1));
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'template']);
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => process.stdout.write(turndown.turndown(Buffer.concat(chunks).toString('utf8'))));
`;

/**
 * Converts an HTML page to Markdown for the model, in a child process killed at the deadline or
 * on abort. A page too large or too deeply nested for that, or one the converter cannot finish in
 * time, comes back as plain text from a linear scan instead. Rejects with ConversionStopped on abort.
 */
export async function htmlToMarkdown(
  html: string,
  options: HtmlConversionOptions,
): Promise<HtmlConversion> {
  const maxChars = options.maxChars ?? MAX_HTML_MARKDOWN_CHARS;
  const maxDepth = options.maxDepth ?? MAX_HTML_DEPTH;
  if (html.length > maxChars)
    return asText(
      html,
      `the page is over ${maxChars} characters, too large to convert to Markdown`,
    );
  if (nestsDeeperThan(html, maxDepth))
    return asText(html, `the page nests elements more than ${maxDepth} deep`);
  try {
    const text = await convertInChild(
      CONVERTER_SOURCE,
      [TURNDOWN_PATH],
      html,
      options.timeoutMs,
      options.signal,
    );
    return { text, format: 'markdown' };
  } catch (error) {
    if (error instanceof ConversionStopped && error.reason === 'deadline')
      return asText(html, 'converting it to Markdown did not finish within the deadline');
    throw error;
  }
}

function asText(html: string, why: string): HtmlConversion {
  return { text: htmlToText(html), format: 'text', note: `shown as plain text: ${why}` };
}
