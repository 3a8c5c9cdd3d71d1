// Control, bidirectional-override and zero-width characters: shown raw they can hide or reorder
// code (Trojan Source) or drive a terminal, so a report names them instead of printing them.
const INVISIBLE_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/gu;

/** Replaces each invisible or control character (tab and line breaks excepted) with `[U+XXXX]`. */
export function revealInvisible(text: string): string {
  return text.replace(
    INVISIBLE_CHARACTERS,
    (character) => `[U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}
