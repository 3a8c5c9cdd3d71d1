import type { AnchoredRule, ValueRange } from '../redaction-rule.js';

// A PuTTY key file (`.ppk`, versions 2 and 3): the lines after `Private-Lines: N` are the private
// key (encrypted or not), and the MAC after them is keyed by it.
const PRIVATE_LINES = /\r?\nPrivate-Lines:[ \t]*(\d{1,3})[ \t]*\r?\n/g;
const KEY_LINE = /[ \t]*[A-Za-z0-9+/=]{1,128}[ \t]*(?:\r?\n|$)/y;
// The header is followed by the public part; the private lines come within this many characters.
const MAX_HEADER_CHARS = 8192;

/** The private part of a PuTTY key, `Private-Lines:` to the last of its lines. */
export const PUTTY_KEY_RULE: AnchoredRule = {
  id: 'putty-private-key',
  description: 'The private lines of a PuTTY key file (PuTTY-User-Key-File-2/3)',
  keywords: ['putty-user-key-file-'],
  scope: 'anchored',
  findAt(text: string, at: number): ValueRange | undefined {
    const region = text.slice(at, at + MAX_HEADER_CHARS);
    PRIVATE_LINES.lastIndex = 0;
    const header = PRIVATE_LINES.exec(region);
    if (header === null) return undefined;
    const count = Number(header[1]);
    const start = at + header.index + header[0].length;
    let end = start;
    for (let line = 0; line < count; line += 1) {
      KEY_LINE.lastIndex = end;
      if (KEY_LINE.exec(text) === null) break;
      end = KEY_LINE.lastIndex;
    }
    while (end > start && /\s/.test(text[end - 1] ?? '')) end -= 1;
    return end > start ? { start, end } : undefined;
  },
};
