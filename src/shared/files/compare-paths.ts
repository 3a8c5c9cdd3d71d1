// UTF-16 code units sort astral characters (surrogates, 0xD800-0xDFFF) before 0xE000-0xFFFF,
// while UTF-8 bytes sort them after; shifting the two ranges gives UTF-8 byte order.
function codeUnitRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit;
}

/** Orders paths by the bytes of their UTF-8 form, the same on every platform and locale. */
export function comparePaths(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left !== right) return codeUnitRank(left) - codeUnitRank(right);
  }
  return a.length - b.length;
}
