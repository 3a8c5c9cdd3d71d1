/** Splits NUL-terminated records (git's `-z` output) without decoding them. */
export function splitNul(output: Buffer): Buffer[] {
  const records: Buffer[] = [];
  let start = 0;
  for (let end = output.indexOf(0, start); end !== -1; end = output.indexOf(0, start)) {
    if (end > start) records.push(output.subarray(start, end));
    start = end + 1;
  }
  if (start < output.length) records.push(output.subarray(start));
  return records;
}
