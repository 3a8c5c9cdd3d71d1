/**
 * Whether a position on a line lies outside string literals, reading the line the way a tokenizer
 * would: a quote (single, double or backtick) opens a string that only the same quote closes, and a
 * backslash escapes the next character. Strings that began on an earlier line are not seen.
 */
export function isOutsideQuotes(line: string, position: number): boolean {
  let open = 0;
  for (let at = 0; at < position; at += 1) {
    const code = line.charCodeAt(at);
    if (code === 92) at += 1;
    else if (open === 0 && (code === 39 || code === 34 || code === 96)) open = code;
    else if (code === open) open = 0;
  }
  return open === 0;
}
