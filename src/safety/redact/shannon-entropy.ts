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
