// What a secret can be made of: anything but whitespace, quotes and the brackets that end tokens.
const TOKEN_CHAR = /[^\s"'`<>()[\]{},;]/u;

/** Most characters dropped at one cut: longer than the tokens the rules know, a bounded loss. */
export const MAX_PARTIAL_TOKEN_CHARS = 1024;

/**
 * Drops the run of token characters that ends `text`, where a cut was made: the cut may have split
 * a secret, and a secret's prefix is too short for the redactor to recognise.
 */
export function dropPartialTokenAtEnd(text: string): string {
  const floor = Math.max(0, text.length - MAX_PARTIAL_TOKEN_CHARS);
  let cut = text.length;
  while (cut > floor && TOKEN_CHAR.test(text.charAt(cut - 1))) cut -= 1;
  return text.slice(0, cut);
}

/** Drops the run of token characters that starts `text`, where a cut was made (see above). */
export function dropPartialTokenAtStart(text: string): string {
  const ceiling = Math.min(text.length, MAX_PARTIAL_TOKEN_CHARS);
  let cut = 0;
  while (cut < ceiling && TOKEN_CHAR.test(text.charAt(cut))) cut += 1;
  return text.slice(cut);
}
