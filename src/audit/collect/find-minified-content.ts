import path from 'node:path';

// Hand-written code averages well under 100 characters a line; minified output is one
// enormous line. Small files are left alone: a short one-liner is not minified.
export const MINIFIED_MIN_CHARS = 2048;
export const MINIFIED_AVERAGE_LINE_CHARS = 300;
// In script and style files a single line this long is a bundle, whatever the average.
export const MINIFIED_MAX_LINE_CHARS = 10_000;
const SCRIPT_AND_STYLE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.css']);

/** Why `text` looks minified (very long lines), or undefined when it does not. */
export function findMinifiedContent(text: string, filePath: string): string | undefined {
  let lines = 0;
  let longest = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    lines++;
    longest = Math.max(longest, end - start);
    start = end + 1;
  }
  const average = Math.round(text.length / Math.max(lines, 1));
  if (text.length > MINIFIED_MIN_CHARS && average > MINIFIED_AVERAGE_LINE_CHARS) {
    return `average line ${average} chars`;
  }
  const extension = path.posix.extname(filePath).toLowerCase();
  if (SCRIPT_AND_STYLE_EXTENSIONS.has(extension) && longest > MINIFIED_MAX_LINE_CHARS) {
    return `a line of ${longest} chars`;
  }
  return undefined;
}
