/** Replaces what varies between runs (dates, durations, commits, versions, temp paths) so reports can be snapshot. */
export function normalizeReport(text: string, root: string, version: string): string {
  return (
    text
      .replaceAll(root, '<root>')
      .replaceAll(version, '<version>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<timestamp>')
      .replace(/\b\d{4}-\d{2}-\d{2}\b/g, '<date>')
      // The seal is keyed per user (each test file has its own home), so it differs between runs.
      .replace(/(oy-seal: |"oySeal": ")[0-9a-f]{64}/g, '$1<seal>')
      .replace(/\b[0-9a-f]{40}\b/g, '<commit>')
      .replace(/"durationMs": \d+/g, '"durationMs": "<duration>"')
      .replace(/\| Duration \| [^|]+ \|/g, '| Duration | <duration> |')
  );
}
