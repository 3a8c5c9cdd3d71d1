/** Shannon entropy of a string in bits per character (UTF-16 code units). */
export function shannonEntropy(value: string): number {
  const length = value.length;
  if (length === 0) return 0;
  const counts = new Map<number, number>();
  for (let index = 0; index < length; index += 1) {
    const code = value.charCodeAt(index);
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

// A value whose entropy is this far below log2 of its length repeats itself (`abababab`,
// `AKIA0000...`); random values of every alphabet we saw stay above it (hex of 16 characters
// bottoms out near 2 bits in 200,000 draws). Capped, so long values need only look varied.
const REPEAT_MARGIN_BITS = 2;
const REPEAT_CAP_BITS = 2.5;

/** Whether a value repeats its characters more than a random value of its length ever does. */
export function isRepetitive(value: string): boolean {
  const floor = Math.min(REPEAT_CAP_BITS, Math.log2(value.length) - REPEAT_MARGIN_BITS);
  return shannonEntropy(value) < floor;
}
