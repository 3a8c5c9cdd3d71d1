/** The Unicode encodings a file's text is read in. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

// Longest first: the UTF-32 LE mark begins with the UTF-16 LE one.
const BYTE_ORDER_MARKS: readonly { encoding: TextEncoding; mark: readonly number[] }[] = [
  { encoding: 'utf-32le', mark: [0xff, 0xfe, 0x00, 0x00] },
  { encoding: 'utf-32be', mark: [0x00, 0x00, 0xfe, 0xff] },
  { encoding: 'utf-8', mark: [0xef, 0xbb, 0xbf] },
  { encoding: 'utf-16le', mark: [0xff, 0xfe] },
  { encoding: 'utf-16be', mark: [0xfe, 0xff] },
];

// A BOM-less sample this long, with a NUL in nearly every other byte and none between, is UTF-16.
const UTF16_SNIFF_MIN_BYTES = 16;
const UTF16_ZERO_SHARE = 0.9;

/**
 * The encoding a file announces with its byte order mark, and the mark's length; text with no
 * mark that is plainly UTF-16 (ASCII-range text with a NUL in every other byte) is read as such,
 * and anything else as UTF-8. `sniffBytes` bounds how much is looked at.
 */
export function detectEncoding(
  bytes: Uint8Array,
  sniffBytes: number,
): { encoding: TextEncoding; markBytes: number } {
  for (const { encoding, mark } of BYTE_ORDER_MARKS) {
    if (bytes.length >= mark.length && mark.every((byte, at) => bytes[at] === byte)) {
      return { encoding, markBytes: mark.length };
    }
  }
  const sample = bytes.subarray(0, Math.min(bytes.length, sniffBytes) & ~1);
  if (sample.length < UTF16_SNIFF_MIN_BYTES) return { encoding: 'utf-8', markBytes: 0 };
  let evenZeros = 0;
  let oddZeros = 0;
  for (let at = 0; at < sample.length; at += 2) {
    if (sample[at] === 0) evenZeros++;
    if (sample[at + 1] === 0) oddZeros++;
  }
  const units = sample.length / 2;
  if (evenZeros === 0 && oddZeros >= units * UTF16_ZERO_SHARE && isPlainText(sample, 0))
    return { encoding: 'utf-16le', markBytes: 0 };
  if (oddZeros === 0 && evenZeros >= units * UTF16_ZERO_SHARE && isPlainText(sample, 1))
    return { encoding: 'utf-16be', markBytes: 0 };
  return { encoding: 'utf-8', markBytes: 0 };
}

/**
 * Whether every code unit of a UTF-16 sample below U+0100 is a printable character or ordinary
 * white space, so an array of small numbers is not taken for text. `low` is the low byte's offset.
 */
function isPlainText(sample: Uint8Array, low: 0 | 1): boolean {
  for (let at = 0; at < sample.length; at += 2) {
    if (sample[at + 1 - low] !== 0) continue;
    const byte = sample[at + low] ?? 0;
    const isSpace = byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d;
    if (!isSpace && (byte < 0x20 || byte === 0x7f)) return false;
  }
  return true;
}

/**
 * Decodes UTF-16 or UTF-32 text (without its mark). Never throws: a broken sequence or a cut-off
 * last unit becomes U+FFFD, as for UTF-8, so the rest of the file is still read.
 */
export function decodeWideText(bytes: Uint8Array, encoding: TextEncoding): string {
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const even = Buffer.from(bytes.subarray(0, bytes.length & ~1));
    // Swapped on a copy: the caller's bytes are left as read.
    const littleEndian = encoding === 'utf-16be' ? Buffer.from(even).swap16() : even;
    const text = new TextDecoder('utf-16le').decode(littleEndian);
    return bytes.length % 2 === 0 ? text : `${text}\uFFFD`;
  }
  if (encoding === 'utf-32le' || encoding === 'utf-32be') return decodeUtf32(bytes, encoding);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

// String.fromCodePoint takes its arguments on the stack: a bounded batch at a time.
const CODE_POINT_BATCH = 8192;
const MAX_CODE_POINT = 0x10ffff;

function decodeUtf32(bytes: Uint8Array, encoding: 'utf-32le' | 'utf-32be'): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const isLittleEndian = encoding === 'utf-32le';
  const pieces: string[] = [];
  let batch: number[] = [];
  for (let at = 0; at + 4 <= bytes.length; at += 4) {
    const point = view.getUint32(at, isLittleEndian);
    const isSurrogate = point >= 0xd800 && point <= 0xdfff;
    batch.push(point > MAX_CODE_POINT || isSurrogate ? 0xfffd : point);
    if (batch.length === CODE_POINT_BATCH) {
      pieces.push(String.fromCodePoint(...batch));
      batch = [];
    }
  }
  if (batch.length > 0) pieces.push(String.fromCodePoint(...batch));
  if (bytes.length % 4 !== 0) pieces.push('\uFFFD');
  return pieces.join('');
}

/**
 * Binary content as text for the secret scan only, the way `strings` sees it: one character per
 * byte (Latin-1), every control byte but tab, line feed and carriage return turned into a space,
 * so a key stored as ASCII inside a binary is found and line numbers still count line feeds. A
 * run of UTF-16 or UTF-32 text inside (a text byte, then one or three NULs, twice or more, in
 * either byte order) loses its NULs, as `strings -e l` reads it, so a wide key is found too.
 */
export function binaryAsText(bytes: Uint8Array): string {
  // A loop over bytes: a regular expression replacing nearly every character of a run of NULs
  // is a hundred times slower.
  const text = Buffer.allocUnsafe(bytes.length);
  let length = 0;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at] ?? 0;
    if (byte === 0 && isWideTextNul(bytes, at)) continue;
    const isControl =
      (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) || byte === 0x7f;
    text[length++] = isControl ? 0x20 : byte;
  }
  return text.toString('latin1', 0, length);
}

// Code unit widths of the wide encodings a binary may hold text in.
const WIDE_UNIT_BYTES = [2, 4] as const;

/** Whether the NUL at `at` pads a text byte into a wide code unit that has a wide neighbour. */
function isWideTextNul(bytes: Uint8Array, at: number): boolean {
  for (const width of WIDE_UNIT_BYTES) {
    for (let start = at - 1; start > at - width; start--) {
      if (
        isWideUnit(bytes, start, width) &&
        (isWideUnit(bytes, start + width, width) || isWideUnit(bytes, start - width, width))
      ) {
        return true;
      }
    }
  }
  return false;
}

/** A text byte followed by `width - 1` NULs at `start`: a character below U+0100, widened. */
function isWideUnit(bytes: Uint8Array, start: number, width: number): boolean {
  if (start < 0 || start + width > bytes.length || !isTextByte(bytes[start] ?? 0)) return false;
  for (let at = start + 1; at < start + width; at++) if (bytes[at] !== 0) return false;
  return true;
}

function isTextByte(byte: number): boolean {
  return (
    byte === 0x09 ||
    byte === 0x0a ||
    byte === 0x0d ||
    (byte >= 0x20 && byte !== 0x7f && (byte < 0x80 || byte >= 0xa0))
  );
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Decoded text with every control character but tab, line feed and carriage return as a space, as `binaryAsText` does. */
export function blankControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, ' ');
}
