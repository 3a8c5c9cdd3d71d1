const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface DecodedFileName {
  /** The name as text; invalid bytes become U+FFFD, for display only. */
  text: string;
  isValid: boolean;
}

/** Decodes a file name read as raw bytes, so a name that is not UTF-8 is seen rather than mis-opened. */
export function decodeFileName(name: Buffer): DecodedFileName {
  try {
    return { text: strictUtf8.decode(name), isValid: true };
  } catch {
    return { text: name.toString('utf8'), isValid: false };
  }
}
