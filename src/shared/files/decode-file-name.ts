const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface DecodedFileName {
  /**
   * The name as text. A valid UTF-8 name is itself; any other is escaped (`escapeFileName`): each
   * byte that is not part of a valid UTF-8 sequence is `\xHH` and a backslash is `\\`, so the text
   * is plain, printable where the bytes were, and tells two different names apart.
   */
  text: string;
  isValid: boolean;
}

/** Decodes a file name read as raw bytes, so a name that is not UTF-8 is seen (escaped) rather than mis-opened. */
export function decodeFileName(name: Buffer): DecodedFileName {
  try {
    return { text: strictUtf8.decode(name), isValid: true };
  } catch {
    return { text: escapeFileName(name), isValid: false };
  }
}

/**
 * The one way a name that is not UTF-8 becomes text: valid sequences are kept, every other byte is
 * `\xHH` (upper-case hex), and a backslash is `\\`, so the escape is one-to-one over such names and
 * no invalid byte reaches a report, a ledger, a URI or a terminal.
 */
export function escapeFileName(name: Buffer): string {
  let text = '';
  let index = 0;
  while (index < name.length) {
    const length = validSequenceLength(name, index);
    if (length === 0) {
      text += `\\x${(name[index] ?? 0).toString(16).toUpperCase().padStart(2, '0')}`;
      index++;
      continue;
    }
    const piece = name.subarray(index, index + length).toString('utf8');
    text += piece === '\\' ? '\\\\' : piece;
    index += length;
  }
  return text;
}

/** The length of the valid UTF-8 sequence starting at `index` (RFC 3629: no overlongs, no surrogates), or 0. */
function validSequenceLength(bytes: Buffer, index: number): number {
  const first = bytes[index] ?? 0;
  if (first < 0x80) return 1;
  const continuation = (at: number, low = 0x80, high = 0xbf): boolean => {
    const byte = bytes[index + at];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (first >= 0xc2 && first <= 0xdf) return continuation(1) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    const low = first === 0xe0 ? 0xa0 : 0x80;
    const high = first === 0xed ? 0x9f : 0xbf;
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    const low = first === 0xf0 ? 0x90 : 0x80;
    const high = first === 0xf4 ? 0x8f : 0xbf;
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}
